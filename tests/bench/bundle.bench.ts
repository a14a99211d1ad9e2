/**
 * Bundle size of the first screens: the JS and CSS that Chromium actually downloads to show
 * /home and /cars (production build, service worker blocked so its background precache does not
 * count), measured gzip -9 from the build's files, plus what went over the wire.
 * Goal: ≤ 120 KB gzip of JS for /home.
 *
 * `npx tsx tests/bench/bundle.bench.ts`, or through `npm run bench` (default export).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { chromium } from 'playwright-core';

import { chromiumLaunchOptions } from '../e2e/support/browser.ts';
import { isMain, kb, printTable, withBuiltApp } from './support.ts';

export const HOME_JS_BUDGET = 120 * 1024;

export type PageWeight = {
  path: string;
  js: number;
  css: number;
  jsFiles: number;
  /** JS requested before the page's main heading showed (the critical path). */
  jsBeforeContent: number;
  transferred: number;
  /** The heaviest JS files, gzip. */
  largest: Array<{ file: string; gzip: number }>;
};

export type BundleResult = { pages: PageWeight[]; homeWithinBudget: boolean; summary: string[] };

function gzipSize(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

export default async function bundleBench(): Promise<BundleResult> {
  return withBuiltApp(async ({ appUrl, appDir }) => {
    const browser = await chromium.launch(chromiumLaunchOptions());
    const pages: PageWeight[] = [];
    try {
      for (const path of ['/home', '/cars']) {
        const context = await browser.newContext({
          serviceWorkers: 'block',
          viewport: { width: 390, height: 844 },
          locale: 'fr-FR',
        });
        const page = await context.newPage();
        const assets: Array<{ url: URL; beforeContent: boolean; transferred: Promise<number> }> =
          [];
        let contentShown = false;
        page.on('requestfinished', (request) => {
          const url = new URL(request.url());
          if (url.origin !== appUrl || !/\.(js|css)$/.test(url.pathname)) return;
          assets.push({
            url,
            beforeContent: !contentShown,
            transferred: request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize),
          });
        });
        await page.goto(`${appUrl}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        contentShown = true;
        await page.waitForLoadState('networkidle');
        const unique = new Map(assets.map((a) => [a.url.pathname, a]));
        let js = 0;
        let css = 0;
        let jsBeforeContent = 0;
        let transferred = 0;
        let jsFiles = 0;
        const files: Array<{ file: string; gzip: number }> = [];
        for (const [pathname, asset] of unique) {
          const size = gzipSize(join(appDir, pathname));
          if (pathname.endsWith('.js'))
            files.push({ file: pathname.replace('/assets/', ''), gzip: size });
          transferred += await asset.transferred;
          if (pathname.endsWith('.css')) css += size;
          else {
            js += size;
            jsFiles += 1;
            if (asset.beforeContent) jsBeforeContent += size;
          }
        }
        const largest = files.sort((a, b) => b.gzip - a.gzip).slice(0, 6);
        pages.push({ path, js, css, jsFiles, jsBeforeContent, transferred, largest });
        await context.close();
      }
    } finally {
      await browser.close();
    }
    const home = pages.find((p) => p.path === '/home')!;
    const homeWithinBudget = home.js <= HOME_JS_BUDGET;
    const summary = pages.map(
      (p) =>
        `${p.path}: JS ${kb(p.js)} gzip (${kb(p.jsBeforeContent)} before content), CSS ${kb(p.css)}` +
        (p.path === '/home'
          ? ` — goal ≤ ${kb(HOME_JS_BUDGET)} JS: ${homeWithinBudget ? 'met' : 'missed'}`
          : ''),
    );
    const result = { pages, homeWithinBudget, summary };
    console.info('\nBundle (gzip -9 of the files Chromium loaded; service worker blocked)');
    printTable(
      pages.map((p) => ({
        page: p.path,
        'JS gzip': kb(p.js),
        'JS before content': kb(p.jsBeforeContent),
        'JS files': p.jsFiles,
        'CSS gzip': kb(p.css),
        'over the wire': kb(p.transferred),
      })),
    );
    for (const p of pages) {
      console.info(
        `${p.path} heaviest: ${p.largest.map((f) => `${f.file} ${kb(f.gzip)}`).join(', ')}`,
      );
    }
    console.info(
      `/home JS ${kb(home.js)} of ${kb(HOME_JS_BUDGET)}: ${result.homeWithinBudget ? 'within' : 'OVER'} budget`,
    );
    return result;
  });
}

if (isMain(import.meta.url)) {
  const result = await bundleBench();
  console.info(JSON.stringify(result));
}
