/**
 * `npm run test:budget` (part of `npm test`): builds the app as `npm start` does and fails when a
 * route's first-screen JavaScript passes its budget.
 *
 * First-screen JS = what a first visit downloads before the route can render: the entry and its
 * static imports, the route's chunks that index.html preloads, and the route's catalogs in French
 * (scripts/route-preload.ts, `firstScreenFiles`), measured gzip -9 like `npm run bench -- bundle`.
 * The build is deterministic (same inputs, same bytes), so these figures only move when the code
 * or the chunk groups (vite.config.ts) do. A budget is a ceiling with a little room; when a change
 * is worth its weight, raise the budget here and say why in the commit.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

import type { OutputBundle } from 'rolldown';
import { build, type Plugin } from 'vite';

import { resolveKeys } from '../supabase/local/config.ts';
import { firstScreenFiles, parseLazyRoutes } from './route-preload.ts';

const KB = 1024;

/**
 * KB gzip per route path of src/app/routes.tsx: about 2 % above what the route weighed when its
 * budget was set (docs/pwa.md), and the goal for /home. A route not named gets `otherwise`.
 */
export const budgets: { routes: Record<string, number>; otherwise: number } = {
  routes: {
    // -15 KB on every screen with a form or the outbox (issue 24): the schemas use zod's mini
    // build (src/domain/booking-request.ts), 24 → 9 KB; each budget below was lowered by 15.
    // A commit that changes no app code still moves a route by up to 0.2 KB (the chunks' hashed
    // names in its imports compress differently): a budget keeps at least 0.5 KB of room.
    // The landing page: the goal of docs/pwa.md.
    home: 120,
    // The car list and a car: the shell, Dexie and the catalogue's code.
    // +1 KB (issue 20): the trip's total for the chosen dates, the contact button stepping aside
    // from controls, user text isolated (main weighed 149.6 and 149.8 KB when the issue began).
    // +3 KB (issues 20, 24): the gallery swipes and opens full screen; the first catalogue sync
    // asks for one screenful first.
    // +1 KB (issue 24): the list saves its first cards for the next visit's index.html
    // (first-cards-snapshot.ts: a repeat visit draws them without sorting or formatting).
    cars: 155,
    'cars/:slug': 155,
    // The booking screens: the outbox, zod, XState, supabase-js.
    // +3 KB (issue 20): typed text cleaned the server's way, the refusal screen's alternatives
    // reviewed, "Edit my details", the agency offered for a code; +2 KB: the file field's own
    // button, thumbnail and "kept" notice, user text isolated.
    // +5 KB (issues 23, 25): the places' opening hours in the wizard (the times offered, why a
    // day is closed) and the outbox's pickup and return records (288.8 KB).
    // -54 KB (issue 24): step 1 draws with no supabase-js and no session module (the device's
    // reads apart from the server calls, the session loaded once the page is drawn): 289 → 235.
    'cars/book': 225,
    // +3 KB (issue 13): the guest's e-mail confirmation (code, resend), the outcome table with a
    // heading and a next action per stage, the offline lookup on this device's bookings.
    // +1 KB (issues 18, 19): the words of a request that holds no car until confirmed and of why
    // one expired, the codes of the new limits, the guest's page updated by the news task.
    // +4 KB (issue 20): the agency offered when a code could not be sent, the refusal screen's
    // review of an alternative, "Edit my details", "Forget on this device", their words; +1 KB
    // (+2 for /mybookings): the contact button steps aside from controls, user text isolated.
    // +3 KB (issues 23, 25): the outbox's pickup and return records; a guest's "also open my
    // account" step (its code and words load only when chosen).
    // +1 KB (issue 24): the booking screens' modules in more, smaller chunks (the wizard's first
    // screen without supabase-js) weigh 0.8 KB more together (270.4 KB).
    'booking-success': 257,
    'guest-booking': 256,
    // +2 KB (issues 20, 21): a queued cancellation or review says so; the bell's titles per stage.
    // +5 KB (issues 23, 25): a booking's pickup and return records (odometer, fuel, photos, damage
    // on the car's outline, deposit) and the guest bookings joining an account (266.2 KB).
    mybookings: 253,
    // +1.5 KB (issue 25): the outbox's pickup and return records.
    'concepts/account/activity-log': 227,
    // Issue 23: the account settings page (profile, appearance, password, e-mail, security).
    // -4.4 KB: the limits out of the outbox's chunk (258.7 → 254.3 KB); 261 → 259.
    account: 244,
    // The authentication screens: supabase-js, zod and the forms; +1 KB (issue 20): the fields
    // isolate what people type and fit at large text (the password's show button wraps).
    // +7 KB (issue 23): the session's level read by getClaims() (verified by the JWKS), the auth
    // catalog's words of the account page, the profile rules shared with it. -5 KB (issue 23):
    // the account page's words in a catalog of its own, loaded with it (-0.6 KB), and the limits
    // out of the outbox's chunk (-4.5 KB): /sign-in 255.3 → 250.2 KB; budgets 257 → 255.
    'sign-in': 240,
    // Issue 23: sign in with a code sent by mail.
    'sign-in/code': 240,
    'sign-up': 240,
    'forgot-password': 240,
    'reset-password': 240,
    // Issue 23: an invited staff member takes the mailed code and chooses a password.
    'accept-invite': 240,
    // +1 KB (issue 19): the shell listens to the service worker (a notification's click opens its
    // booking without a reload) and starts the news task. +2 KB (issue 18): where pending
    // bookings come from and the wave's one action, whose words travel in the staff catalog.
    // +2 KB (issue 20): confirm a guest's contact after a call, extend its deadline, its language;
    // +1 KB (issue 23): the second-factor step (enrol or type the code) before any staff screen.
    // +5 KB (issues 23, 25): getClaims() for the second factor; the calendar link, the export panel
    // and the fleet's words in the staff catalog.
    // +6 KB (issue 25): the links to places and prices, the records' words and the outbox's
    // records in the staff catalog and code (257.5 KB).
    staff: 244,
    // +28 KB (issue 25): the booking's pickup and return (the panel, the records queued on this
    // phone, the outbox's record sender, the photos' links); the form itself (photos, damage
    // outline) loads when staff start a record (275.5 KB).
    'staff/bookings/:id': 263,
    // Issue 25: the fleet calendar and the fleet. +4 KB: a day shared by two holds; +9 KB for
    // the fleet: its pictures (resized on the device, uploaded, ordered).
    'staff/calendar': 238,
    'staff/cars': 241,
    // Issue 25: the places' opening hours and closed days; the prices staff set.
    'staff/places': 236,
    'staff/prices': 236,
    // Issue 23: invite a staff member (the form and its call to the invite-staff function).
    // +1 KB: the limits its error messages state (src/domain/limits.ts, 201.9 KB).
    'staff/team': 203,
    // Content pages: the shell and text.
    // +0.5 KB for /qa (issues 24, 25): the shell's toasts as a valid list, the first screen's
    // session guess.
    qa: 116,
    contacts: 115,
    'privacy-policy': 116,
    terms: 116,
    'access-denied': 115,
  },
  otherwise: 120,
};

export type RouteWeight = {
  path: string;
  bytes: number;
  budget: number;
  files: Array<{ file: string; bytes: number; modules: string[] }>;
};

/** Builds into a temporary directory and measures every route's first screen. */
export async function measureFirstScreens(root = resolve(import.meta.dirname, '..')) {
  const outDir = mkdtempSync(join(tmpdir(), 'kiraa-budget-'));
  let bundle: OutputBundle | null = null;
  const capture: Plugin = {
    name: 'kiraa-budget-capture',
    apply: 'build',
    writeBundle(_options, output) {
      // The app's bundle (the service worker is built separately, by vite-plugin-pwa).
      if (output['index.html']) bundle = output as OutputBundle;
    },
  };
  // The build `npm start` makes, against the local stack's address and public key.
  process.env.VITE_SUPABASE_URL = 'http://localhost:54321';
  process.env.VITE_SUPABASE_ANON_KEY = resolveKeys({}).anonKey;
  try {
    await build({
      root,
      configFile: resolve(root, 'vite.config.ts'),
      logLevel: 'error',
      plugins: [capture],
      build: { outDir, emptyOutDir: true },
    });
    if (!bundle) throw new Error('the build produced no bundle');
    const routes = parseLazyRoutes(readFileSync(resolve(root, 'src/app/routes.tsx'), 'utf8'));
    const output = bundle as OutputBundle;
    const modulesOf = (file: string) => {
      const chunk = output[file];
      return chunk?.type === 'chunk'
        ? chunk.moduleIds.map((id) => id.replace(`${root}/`, '').replace(/^.*node_modules\//, ''))
        : [];
    };
    const gzip = new Map<string, number>();
    const size = (file: string) => {
      if (!gzip.has(file)) {
        gzip.set(file, gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length);
      }
      return gzip.get(file)!;
    };
    return firstScreenFiles(bundle, root, routes, 'fr').map(({ path, files }): RouteWeight => ({
      path,
      bytes: files.reduce((sum, file) => sum + size(file), 0),
      budget: (budgets.routes[path] ?? budgets.otherwise) * KB,
      files: files.map((file) => ({ file, bytes: size(file), modules: modulesOf(file) })),
    }));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const weights = await measureFirstScreens();
const over = weights.filter((w) => w.bytes > w.budget);
console.info('First-screen JS per route (gzip -9, French):');
for (const w of weights) {
  const mark = w.bytes > w.budget ? '✗ OVER' : '✓';
  console.info(
    `  ${mark} /${w.path.padEnd(22)} ${(w.bytes / KB).toFixed(1).padStart(6)} KB of ${(w.budget / KB).toFixed(0)} KB (${w.files.length} files)`,
  );
  // What a route over budget loads (or every route's, with --files), heaviest first.
  if (w.bytes > w.budget || process.argv.includes('--files')) {
    for (const f of [...w.files].sort((a, b) => b.bytes - a.bytes)) {
      console.info(`        ${(f.bytes / KB).toFixed(1).padStart(6)} KB  ${f.file}`);
      if (process.argv.includes('--modules')) {
        for (const id of f.modules) console.info(`                    ${id}`);
      }
    }
  }
}
if (over.length > 0) {
  console.error(
    `\n${over.length} route(s) over budget: ${over.map((w) => `/${w.path}`).join(', ')}`,
  );
  process.exit(1);
}
