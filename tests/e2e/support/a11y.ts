import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * No serious or critical axe violation (WCAG 2.2 AA and axe's best practices) on the app's page
 * (once it has replaced index.html's inert copy of the first screen), or in `include` only (e.g.
 * '#main': a screen's own content; the shell has its own test).
 */
export async function expectAccessible(page: Page, include?: string): Promise<void> {
  await expect(page.locator('[data-first-screen]')).toHaveCount(0);
  // axe.run in the page itself: the app has no frames, so the default (a partial run per frame,
  // then a second page with axe injected again to merge them) only added ≈ 1.7 s per check.
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode();
  const results = await (include ? builder.include(include) : builder).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  expect(serious).toEqual([]);
}
