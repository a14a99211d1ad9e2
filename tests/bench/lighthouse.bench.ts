/**
 * Lighthouse 12 (mobile, its default simulated throttling) on /home and /cars of the production
 * build served against the local stack: performance, accessibility and best-practices scores,
 * with LCP, TBT and CLS. Goals: ≥ 95, 100, 100.
 *
 * `npx tsx tests/bench/lighthouse.bench.ts`, or through `npm run bench` (default export).
 * Chromium: CHROME_PATH, else Playwright's or Debian's (tests/e2e/support/browser.ts).
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

import { CHROMIUM_FLAGS, chromiumExecutable } from '../e2e/support/browser.ts';
import { isMain, printTable, withBuiltApp } from './support.ts';

export const GOALS = { performance: 95, accessibility: 100, 'best-practices': 100 } as const;

export type LighthouseScores = {
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Audits that cost points in accessibility and best-practices. */
  failing: string[];
};

/** Debian's Chromium or CHROME_PATH, else Playwright's own. */
function chromePath(): string {
  return chromiumExecutable() ?? chromium.executablePath();
}

export default async function lighthouseBench(): Promise<LighthouseScores[]> {
  return withBuiltApp(async ({ appUrl }) => {
    const results: LighthouseScores[] = [];
    for (const path of ['/home', '/cars']) {
      const chrome = await chromeLauncher.launch({
        chromePath: chromePath(),
        chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
      });
      try {
        const runner = await lighthouse(`${appUrl}${path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
        });
        if (!runner) throw new Error(`Lighthouse returned nothing for ${path}`);
        const { categories, audits } = runner.lhr;
        const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
        const failing = ['accessibility', 'best-practices'].flatMap((id) =>
          (categories[id]?.auditRefs ?? [])
            .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
            .map((ref) => `${id}: ${ref.id}`),
        );
        results.push({
          path,
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? NaN),
          tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? NaN),
          cls: Number((audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)),
          failing,
        });
      } finally {
        chrome.kill();
      }
    }
    console.info('\nLighthouse 12, mobile (simulated throttling)');
    printTable(
      results.map((r) => ({
        page: r.path,
        performance: `${r.performance}/${GOALS.performance}`,
        accessibility: `${r.accessibility}/${GOALS.accessibility}`,
        'best-practices': `${r.bestPractices}/${GOALS['best-practices']}`,
        LCP: `${r.lcpMs} ms`,
        TBT: `${r.tbtMs} ms`,
        CLS: r.cls,
      })),
    );
    for (const r of results) {
      if (r.failing.length) console.info(`${r.path} loses points on: ${r.failing.join(', ')}`);
    }
    return results;
  });
}

if (isMain(import.meta.url)) {
  const results = await lighthouseBench();
  console.info(JSON.stringify(results));
}
