/**
 * The layout audit (issues 13 and 20): every route and every wizard step, checked by
 * tests/e2e/support/layout-audit.ts: no sideways overflow, no clipped text or word split
 * mid-word, no floating element over a control, headings and focus targets below the sticky
 * header, user text of the other script isolated. One test (and one browser page per kind of
 * visitor) per run of RUNS; each test collects every finding and fails listing them all.
 *
 * The runs keep the suite's time in check (2 cores): 320 and 390 px in the three languages,
 * light then dark (the theme switched in place, as the app switches it: the same page, no second
 * journey); 768 px in Arabic, and the browser's text at 200 % (360 px in Arabic, 320 px in
 * French), each in light only (dark changes colours, not the layout). Phones from 320 to 390 px
 * share one layout (the first breakpoint is 576 px), so widths between the two add little.
 */
import { randomInt, randomUUID } from 'node:crypto';

import type { Browser, BrowserContext, Page } from '@playwright/test';

import { CARS_TABLE, DEVICE_DB_NAME } from '../../src/infra/db-name.ts';
import { newCustomer, newPendingBooking, staffSetStatus } from './support/accounts.ts';
import type { E2eEnv } from './support/env.ts';
import { expect, test } from './support/fixtures.ts';
import {
  type AuditOptions,
  auditFocusBelowHeader,
  auditLayout,
  setTextSize,
} from './support/layout-audit.ts';
import { DEMO_ADMIN, passSecondFactorInUi } from './support/session.ts';

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const CAR_SLUG = 'renault-clio-5-2023';

type Locale = 'fr' | 'en' | 'ar';
type Mode = 'light' | 'dark';

type Run = { width: number; locale: Locale; modes: Mode[]; textSize: number };
/**
 * At 200 % text a phone line holds a dozen letters: long words break there on purpose
 * (src/styles.css, "Large text") and some labels wrap tightly, so those runs fail on sideways
 * overflow, covered controls, focus under the header and mixed scripts, and count the clipped
 * and word-break findings without failing on them (printed for the record).
 */
const LENIENT = /\[(clipped|word-break)\]/;
const BOTH: Mode[] = ['light', 'dark'];
const RUNS: Run[] = [
  ...[320, 390].flatMap((width) =>
    (['fr', 'en', 'ar'] as const).map((locale) => ({ width, locale, modes: BOTH, textSize: 100 })),
  ),
  { width: 768, locale: 'ar', modes: ['light'], textSize: 100 },
  { width: 360, locale: 'ar', modes: ['light'], textSize: 200 },
  { width: 320, locale: 'fr', modes: ['light'], textSize: 200 },
];

/** The modes of the current run (set by each test before it audits). */
let MODES: Mode[] = BOTH;

/** Audits the screen in each mode of the run (each audit sets its mode first). */
async function auditModes(page: Page, where: string, options?: AuditOptions): Promise<string[]> {
  const found: string[] = [];
  for (const mode of MODES) {
    // What src/infra/theme.ts does when the user switches the theme.
    await page.evaluate((m) => {
      document.documentElement.classList.toggle('dark', m === 'dark');
      document.documentElement.style.colorScheme = m;
    }, mode);
    found.push(...(await auditLayout(page, `${where} (${mode})`, options)));
  }
  return found;
}

async function rest(e2e: E2eEnv, path: string): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${e2e.apiUrl}/rest/v1/${path}`, {
    headers: { apikey: e2e.serviceRoleKey, authorization: `Bearer ${e2e.serviceRoleKey}` },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Array<Record<string, unknown>>;
}

function algiersDay(days: number): string {
  const algiersNow = Date.now() + 60 * 60 * 1000;
  return new Date(algiersNow + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

async function openContext(
  browser: Browser,
  e2e: E2eEnv,
  width: number,
  locale: Locale,
  textSize = 100,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: e2e.appUrl,
    // Phones of those widths (an iPhone SE (1st generation), a common Android, an iPhone 12–14)
    // and a tablet.
    viewport: { width, height: { 320: 568, 360: 780, 390: 844 }[width] ?? 1024 },
    // Pages load fresh from the server: the audit is about layout, not about the cache.
    serviceWorkers: 'block',
  });
  await context.addInitScript((l) => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', l);
    localStorage.setItem('theme', JSON.stringify({ mode: 'light' }));
  }, locale);
  const page = await context.newPage();
  if (textSize !== 100) await setTextSize(page, textSize);
  return { context, page };
}

/**
 * Opens `path` and waits until its content is there (a new heading, then `ready`). Once the app
 * is loaded it moves as its own links do, through the router with no reload: the audit looks at
 * the app's rendering of a screen either way, and a reload per screen (the app's code parsed and
 * run again) was a fifth of the audit's time.
 */
async function visit(page: Page, path: string, ready?: (page: Page) => Promise<void>) {
  if (page.url() === 'about:blank') {
    await page.goto(path);
  } else {
    await page.evaluate((to) => {
      // The headings shown now, so the wait below is for the next screen's.
      for (const heading of document.querySelectorAll('h1')) heading.dataset.auditLeft = '';
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
    }, path);
  }
  await expect(page.locator('h1:not([data-audit-left])').first()).toBeVisible();
  await ready?.(page);
  // No spinner left in the main region.
  await expect(page.locator('main .animate-spin')).toHaveCount(0);
}

async function signIn(page: Page, email: string, password: string, redirectUrl: string) {
  await page.goto(`/sign-in?redirectUrl=${encodeURIComponent(redirectUrl)}`);
  await page.locator('main input[type="email"]').fill(email);
  await page.locator('main input[type="password"]').fill(password);
  await page.locator('main button[type="submit"]').click();
  await expect(page).toHaveURL(new RegExp(`${redirectUrl.replace(/[?]/g, '\\?')}$`));
}

const publicPages: Array<{ path: string; ready?: (page: Page) => Promise<void> }> = [
  { path: '/home' },
  {
    path: '/cars',
    ready: (page) => expect(page.getByTestId('car-link').first()).toBeVisible(),
  },
  {
    path: `/cars/${CAR_SLUG}`,
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toContainText('Clio'),
  },
  { path: '/qa', ready: (page) => expect(page.getByTestId('faq-list')).toBeVisible() },
  { path: '/contacts' },
  { path: '/guest-booking' },
  { path: '/privacy-policy' },
  { path: '/terms' },
  { path: '/sign-in' },
  { path: '/sign-in/code' },
  { path: '/sign-up' },
  { path: '/forgot-password' },
  { path: '/reset-password' },
  { path: '/accept-invite' },
];

/** The five wizard steps as a guest, audited at each one, then the success page. */
async function auditWizard(
  page: Page,
  e2e: E2eEnv,
  locale: Locale,
  where: string,
): Promise<string[]> {
  const found: string[] = [];
  // A car the server offers and this device knows: its catalogue synced while the pages above
  // were audited, so a car another test created since is not in the wizard's list yet (the
  // audit at 390 px in Arabic failed on one, 2026-11-27).
  const known = new Set(
    await page.evaluate(
      ({ name, table }) =>
        new Promise<string[]>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const read = open.result.transaction(table).objectStore(table).getAll();
            read.onerror = () => reject(read.error);
            read.onsuccess = () => {
              open.result.close();
              resolve((read.result as Array<{ id: string }>).map((c) => c.id));
            };
          };
        }),
      { name: DEVICE_DB_NAME, table: CARS_TABLE },
    ),
  );
  const cars = (await rest(e2e, 'cars?active=is.true&select=id&order=id')).filter((c) =>
    known.has(String(c.id)),
  );
  expect(cars.length).toBeGreaterThan(0);
  const locations = await rest(e2e, 'locations?active=is.true&kind=eq.airport&select=id&order=id');
  const car = String(cars[randomInt(cars.length)]!.id);
  // Within the booking horizon (settings.booking_horizon_days, 365), as booking-journey.ts.
  const day = 30 + randomInt(320);
  await page.goto(
    `/cars/book?car=${car}&start=${algiersDay(day)}T10:00&end=${algiersDay(day + 2)}T10:00`,
  );
  const step = page.getByTestId('wizard-step');
  await expect(step).toContainText('1');
  found.push(...(await auditModes(page, `${where} /cars/book step 1`)));
  await page.getByTestId('wizard-next').click();

  await expect(step).toContainText('2');
  await expect(page.getByTestId('price-total')).toBeVisible();
  found.push(...(await auditFocusBelowHeader(page, `${where} /cars/book step 2 (step change)`)));
  found.push(...(await auditModes(page, `${where} /cars/book step 2`)));
  await page.getByTestId('wizard-next').click();

  await expect(step).toContainText('3');
  found.push(...(await auditFocusBelowHeader(page, `${where} /cars/book step 3 (step change)`)));
  // The errors of an empty submit are part of the layout too.
  await page.getByTestId('wizard-next').click();
  await expect(page.locator('main [role="alert"]').first()).toBeVisible();
  // Every missing field at the first submit, the licence too (it used to wait for the second).
  await expect(page.getByTestId('licence-input')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('select[name="pickup_location_id"]')).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  found.push(...(await auditModes(page, `${where} /cars/book step 3 (errors)`)));
  await page.locator('select[name="pickup_location_id"]').selectOption(String(locations[0]!.id));
  await page.locator('input[name="driver_option"][value="self"]').check();
  await page.getByTestId('licence-input').setInputFiles({
    name: 'permis-de-conduire-recto-verso-2026.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await expect(page.getByTestId('licence-input-name')).toBeVisible();
  await page.locator('input[name="from_abroad"]').check();
  await page.locator('input[name="dropoff_same"]').uncheck();
  found.push(...(await auditModes(page, `${where} /cars/book step 3`)));
  await page.locator('input[name="from_abroad"]').uncheck();
  await page.locator('input[name="dropoff_same"]').check();
  await page.getByTestId('wizard-next').click();

  await expect(step).toContainText('4');
  found.push(...(await auditFocusBelowHeader(page, `${where} /cars/book step 4 (step change)`)));
  // User text of the other script than the UI's: it must be isolated wherever it is shown.
  await page
    .locator('input[name="guest_name"]')
    .fill(locale === 'ar' ? 'Amina Benali-Haddad.' : 'أمينة بن علي');
  await page.locator('input[name="guest_phone"]').fill(`+2135${randomInt(10_000_000, 99_999_999)}`);
  await page
    .locator('input[name="guest_email"]')
    .fill(`audit-${randomUUID().slice(0, 8)}@kiraa.test`);
  await page
    .locator('textarea[name="additional_requests"]')
    .fill(locale === 'ar' ? 'Siège bébé installé, merci !' : 'كرسي أطفال من فضلكم!');
  found.push(...(await auditModes(page, `${where} /cars/book step 4`)));
  await page.getByTestId('wizard-next').click();

  await expect(step).toContainText('5');
  // Words in their context: the car's return is not the "back" of the button beside it.
  const returnLabel = { fr: 'Retour', en: 'Return', ar: 'إرجاع السيارة' }[locale];
  const backLabel = { fr: 'Retour', en: 'Back', ar: 'رجوع' }[locale];
  await expect(
    page.locator('main dl dt').filter({ hasText: new RegExp(`^${returnLabel}$`) }),
  ).toHaveCount(1);
  await expect(page.getByTestId('wizard-back')).toHaveText(backLabel);
  found.push(...(await auditFocusBelowHeader(page, `${where} /cars/book step 5 (step change)`)));
  found.push(...(await auditModes(page, `${where} /cars/book step 5`)));
  await page.getByTestId('accept-guarantee').check();
  await page.getByTestId('wizard-confirm').click();

  await expect(page).toHaveURL(/\/booking-success\?id=/);
  await expect(page.getByTestId('booking-reference')).toBeVisible();
  found.push(...(await auditModes(page, `${where} /booking-success`)));
  return found;
}

/** A customer with a booking and an unread notification: their pages and the header's panels. */
async function auditCustomer(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  const customer = await newCustomer('Lina Bouzid-Abderrahmane');
  const booking = await newPendingBooking(customer);
  await staffSetStatus(booking.id, 'reserved');
  await signIn(page, customer.email, customer.password, '/mybookings');
  await expect(page.getByTestId('booking-status').first()).toBeVisible();
  found.push(...(await auditModes(page, `${where} /mybookings`)));

  await expect(page.getByTestId('notification-dot')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-panel')).toBeVisible();
  found.push(...(await auditModes(page, `${where} notifications panel`, { focusWalk: false })));
  await page.keyboard.press('Escape');
  await page.getByTestId('user-menu-button').click();
  await expect(page.getByTestId('user-menu-identity')).toBeVisible();
  found.push(...(await auditModes(page, `${where} user menu`, { focusWalk: false })));
  await page.keyboard.press('Escape');

  await visit(page, '/concepts/account/activity-log');
  found.push(...(await auditModes(page, `${where} /concepts/account/activity-log`)));
  await visit(page, '/staff');
  await expect(page).toHaveURL(/\/access-denied/);
  found.push(...(await auditModes(page, `${where} /access-denied`)));
  return found;
}

async function auditStaff(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password, '/staff');
  await passSecondFactorInUi(page);
  const first = page.getByTestId('staff-booking').first();
  await expect(first).toBeVisible();
  found.push(...(await auditModes(page, `${where} /staff`)));
  const link = first.locator('a[href^="/staff/bookings/"]').first();
  await page.goto((await link.getAttribute('href')) ?? '/staff');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('staff-status').first()).toBeVisible();
  found.push(...(await auditModes(page, `${where} /staff/bookings/:id`)));
  await page.goto('/staff/team');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  found.push(...(await auditModes(page, `${where} /staff/team`)));
  return found;
}

// The six runs share nothing but the stack: both workers take them.
test.describe.configure({ mode: 'parallel' });

for (const { width, locale, modes, textSize } of RUNS) {
  const text = textSize === 100 ? '' : `, text ${textSize} %`;
  test(`layout audit at ${width} px, ${locale}${text}, ${modes.join(' and ')}`, async ({
    browser,
    e2e,
  }) => {
    test.setTimeout(180_000);
    MODES = modes;
    const where = `${width}px ${locale}${textSize === 100 ? '' : ` ${textSize}%`}`;
    const found: string[] = [];

    const guest = await openContext(browser, e2e, width, locale, textSize);
    for (const { path, ready } of publicPages) {
      await visit(guest.page, path, ready);
      await expect(guest.page.locator('html')).toHaveAttribute('lang', locale);
      found.push(...(await auditModes(guest.page, `${where} ${path}`)));
    }
    found.push(...(await auditWizard(guest.page, e2e, locale, where)));
    await guest.context.close();

    const customer = await openContext(browser, e2e, width, locale, textSize);
    found.push(...(await auditCustomer(customer.page, where)));
    await customer.context.close();

    const staff = await openContext(browser, e2e, width, locale, textSize);
    found.push(...(await auditStaff(staff.page, where)));
    await staff.context.close();

    const counted = textSize === 100 ? [] : found.filter((f) => LENIENT.test(f));
    const failing = found.filter((f) => !counted.includes(f));
    console.info(
      `[layout-audit] ${where}: ${failing.length} finding(s)` +
        (counted.length ? `, ${counted.length} clipped or word-break (counted only)` : ''),
    );
    expect(failing, failing.join('\n')).toEqual([]);
  });
}
