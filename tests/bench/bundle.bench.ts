/**
 * Bundle size of the first screens: the JS and CSS that Chromium actually downloads to show
 * /home and /cars (production build, service worker blocked so its background precache does not
 * count), measured gzip -9 from the build's files, plus what went over the wire.
 *
 * Two JS figures per page: the first screen (files requested before the page's main heading was
 * painted: what the visitor waits for) and everything the page loaded by network idle (the
 * catalogue part of the screen and the background work started after the first paint: sync
 * engine, supabase-js, service worker). Goal: ≤ 120 KB gzip of first-screen JS for /home.
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
  /** JS requested before the page's main heading was painted (the critical path). */
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
        const assets: Array<{ url: URL; transferred: Promise<number> }> = [];
        page.on('requestfinished', (request) => {
          const url = new URL(request.url());
          if (url.origin !== appUrl || !/\.(js|css)$/.test(url.pathname)) return;
          assets.push({
            url,
            transferred: request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize),
          });
        });
        // The page notes the frame in which its main heading is first painted: the first animation
        // frame that finds it in the DOM (rAF callbacks run just before that frame's paint, so
        // what the page requests after the paint, e.g. deferred work, is not counted).
        // (A string: tsx would wrap a function's inner names in a helper the page does not have.)
        await page.addInitScript(`
          (function look() {
            if (document.querySelector('h1')) window.__contentAt = performance.now();
            else requestAnimationFrame(look);
          })();
        `);
        await page.goto(`${appUrl}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForLoadState('networkidle');
        const timing = await page.evaluate(() => {
          const at = (window as { __contentAt?: number }).__contentAt ?? Infinity;
          return {
            at,
            before: performance
              .getEntriesByType('resource')
              .filter((entry) => entry.startTime < at)
              .map((entry) => new URL(entry.name).pathname),
          };
        });
        console.info(`${path}: main heading painted at ${timing.at.toFixed(0)} ms`);
        const requestedBeforeContent = new Set(timing.before);
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
            if (requestedBeforeContent.has(pathname)) jsBeforeContent += size;
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
    const homeWithinBudget = home.jsBeforeContent <= HOME_JS_BUDGET;
    const summary = pages.map(
      (p) =>
        `${p.path}: first screen JS ${kb(p.jsBeforeContent)} gzip, all JS by network idle ${kb(p.js)}, CSS ${kb(p.css)}` +
        (p.path === '/home'
          ? ` — goal ≤ ${kb(HOME_JS_BUDGET)} first-screen JS: ${homeWithinBudget ? 'met' : 'missed'}`
          : ''),
    );
    const result = { pages, homeWithinBudget, summary };
    console.info('\nBundle (gzip -9 of the files Chromium loaded; service worker blocked)');
    printTable(
      pages.map((p) => ({
        page: p.path,
        'first-screen JS': kb(p.jsBeforeContent),
        'all JS': kb(p.js),
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
      `/home first-screen JS ${kb(home.jsBeforeContent)} of ${kb(HOME_JS_BUDGET)}: ${result.homeWithinBudget ? 'within' : 'OVER'} budget`,
    );
    return result;
  });
}

if (isMain(import.meta.url)) {
  const result = await bundleBench();
  console.info(JSON.stringify(result));
}
