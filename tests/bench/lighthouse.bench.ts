/**
 * Lighthouse 12 (mobile, its default simulated throttling) on /home, /cars, a car's page and the
 * booking wizard of the production build served against the local stack (on PostgreSQL when this
 * machine has it, support.ts `withProductionApp`): performance,
 * accessibility and best-practices scores, with LCP, TBT and CLS. Goals: ≥ 98, 100, 100
 * (docs/performance.md). Each page runs KIRAA_LIGHTHOUSE_RUNS times
 * (default 3) and the median run is reported; KIRAA_LIGHTHOUSE_REPORTS=<dir> keeps every report,
 * KIRAA_LIGHTHOUSE_PAGES=/cars measures only the pages listed.
 *
 * `npx tsx tests/bench/lighthouse.bench.ts`, or through `npm run bench` (default export).
 * Chromium: CHROME_PATH, else Playwright's or Debian's (tests/e2e/support/browser.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

import { CHROMIUM_FLAGS, chromiumExecutable } from '../e2e/support/browser.ts';
import { isMain, printTable, withProductionApp } from './support.ts';

export const GOALS = { performance: 98, accessibility: 100, 'best-practices': 100 } as const;

/** The pages measured (a seed car's page, the wizard for it); KIRAA_LIGHTHOUSE_PAGES narrows them. */
const PAGES = process.env.KIRAA_LIGHTHOUSE_PAGES?.split(',').filter(Boolean) ?? [
  '/home',
  '/cars',
  '/cars/renault-clio-5-2023',
  '/cars/book?car=ca000000-0000-4000-8000-000000000043',
];
/** Runs per page (KIRAA_LIGHTHOUSE_RUNS, default 3); the median run is reported. */
const RUNS = Math.max(1, Number(process.env.KIRAA_LIGHTHOUSE_RUNS ?? 3) || 3);

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
  /** Where to look: the LCP element, the elements that shifted, the heaviest scripts. */
  diagnostics: string[];
};

type DetailItem = Record<string, unknown> & { node?: { snippet?: string; selector?: string } };

function detailItems(audit: { details?: unknown } | undefined): DetailItem[] {
  const details = audit?.details as { items?: DetailItem[] } | undefined;
  return details?.items ?? [];
}

/** Every node (selector) mentioned in an audit's details, however nested. */
function findNodes(details: unknown): string[] {
  if (!details || typeof details !== 'object') return [];
  const value = details as Record<string, unknown>;
  if (value.type === 'node') return [String(value.selector ?? value.snippet ?? '?')];
  return Object.values(value).flatMap(findNodes);
}

function describeNode(item: DetailItem): string {
  return item.node?.selector ?? item.node?.snippet ?? '?';
}

/** Debian's Chromium or CHROME_PATH, else Playwright's own. */
function chromePath(): string {
  return chromiumExecutable() ?? chromium.executablePath();
}

export default async function lighthouseBench(): Promise<{
  results: LighthouseScores[];
  summary: string[];
}> {
  return withProductionApp(async ({ appUrl }) => {
    const runs: LighthouseScores[] = [];
    for (const path of PAGES.flatMap((page) => Array.from({ length: RUNS }, () => page))) {
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
        const reportDir = process.env.KIRAA_LIGHTHOUSE_REPORTS;
        if (reportDir) {
          mkdirSync(reportDir, { recursive: true });
          const run = runs.filter((r) => r.path === path).length + 1;
          writeFileSync(
            join(reportDir, `${path.slice(1).replace(/[^\w-]+/g, '_')}-${run}.json`),
            JSON.stringify(runner.lhr),
          );
        }
        const { categories, audits } = runner.lhr;
        const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
        const failing = ['accessibility', 'best-practices'].flatMap((id) =>
          (categories[id]?.auditRefs ?? [])
            .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
            .map((ref) => `${id}: ${ref.id}`),
        );
        const lcpElement = findNodes(audits['largest-contentful-paint-element']?.details).slice(
          0,
          1,
        );
        const shifts = detailItems(audits['layout-shifts'])
          .slice(0, 3)
          .map((item) => `${describeNode(item)} (${Number(item.score ?? 0).toFixed(3)})`);
        const scripts = detailItems(audits['bootup-time'])
          .slice(0, 3)
          .map(
            (item) =>
              `${String(item.url).replace(appUrl, '')} ${Math.round(Number(item.total))} ms`,
          );
        runs.push({
          path,
          diagnostics: [
            `LCP element: ${lcpElement.join('') || 'n/a'}`,
            `layout shifts: ${shifts.join('; ') || 'none'}`,
            `main-thread time by script: ${scripts.join('; ')}`,
          ],
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
    // Lighthouse's own advice: its score varies from run to run; report the median run.
    const results = PAGES.map((path) => {
      const mine = runs
        .filter((r) => r.path === path)
        .sort((a, b) => a.performance - b.performance);
      return { ...mine[Math.floor((mine.length - 1) / 2)]!, range: mine.map((r) => r.performance) };
    });
    console.info(`\nLighthouse 12, mobile (simulated throttling), median of ${RUNS} runs`);
    printTable(
      results.map((r) => ({
        page: r.path,
        performance: `${r.performance}/${GOALS.performance}`,
        'all runs': r.range.join(' '),
        accessibility: `${r.accessibility}/${GOALS.accessibility}`,
        'best-practices': `${r.bestPractices}/${GOALS['best-practices']}`,
        LCP: `${r.lcpMs} ms`,
        TBT: `${r.tbtMs} ms`,
        CLS: r.cls,
      })),
    );
    for (const r of results) {
      if (r.failing.length) console.info(`${r.path} loses points on: ${r.failing.join(', ')}`);
      for (const line of r.diagnostics) console.info(`${r.path} ${line}`);
    }
    const summary = results.map(
      (r) =>
        `${r.path}: performance ${r.performance} (median of ${RUNS}: ${r.range.join(', ')}), accessibility ${r.accessibility}, ` +
        `best-practices ${r.bestPractices} (goals ${GOALS.performance}/${GOALS.accessibility}/` +
        `${GOALS['best-practices']}); LCP ${r.lcpMs} ms, TBT ${r.tbtMs} ms, CLS ${r.cls}`,
    );
    return { results, summary };
  });
}

if (isMain(import.meta.url)) {
  const { results } = await lighthouseBench();
  console.info(JSON.stringify(results));
}
