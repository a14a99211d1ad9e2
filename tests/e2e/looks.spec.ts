/**
 * Issue 20, "looks broken" and "polish": each class as it was seen, and one more case of it, in
 * French and Arabic. Large text is the browser's text size at 200 % (setTextSize: Chrome's
 * default font size, which every rem of the app follows).
 */
import type { Browser, Page } from '@playwright/test';

import { formatDzd } from '../../src/domain/money.ts';
import { newCustomer, newPendingBooking, staffSetStatus } from './support/accounts.ts';
import type { E2eEnv } from './support/env.ts';
import { expect, test } from './support/fixtures.ts';
import { auditLayout, setTextSize } from './support/layout-audit.ts';
import { workerInControl } from './support/worker.ts';

type Locale = 'fr' | 'ar';

async function open(
  browser: Browser,
  e2e: E2eEnv,
  locale: Locale,
  width: number,
  options: { textSize?: number; serviceWorkers?: 'allow' | 'block' } = {},
) {
  const context = await browser.newContext({
    baseURL: e2e.appUrl,
    viewport: { width, height: width === 320 ? 568 : 780 },
    serviceWorkers: options.serviceWorkers ?? 'block',
  });
  await context.addInitScript((l) => localStorage.setItem('locale', l), locale);
  const page = await context.newPage();
  if (options.textSize) await setTextSize(page, options.textSize);
  return { context, page };
}

/** The document's width against the screen's, and the header's right and left edges. */
async function sideways(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector('body header')!.getBoundingClientRect();
    return {
      scrollWidth: document.documentElement.scrollWidth,
      width: document.documentElement.clientWidth,
      headerInside: header.left >= -1 && header.right <= document.documentElement.clientWidth + 1,
    };
  });
}

test.describe('large text (200 %)', () => {
  for (const [locale, width, path, ready] of [
    // Seen: the Arabic car list 518 px wide at 360 px.
    ['ar', 360, '/cars', 'car-link'],
    ['fr', 360, '/cars', 'car-link'],
    // Same class: a car's page and the sign-in page (its own header) at 320 px.
    ['fr', 320, '/cars/renault-clio-5-2023', 'daily-rate'],
    ['ar', 320, '/sign-in', null],
  ] as const) {
    test(`${path} at ${width} px in ${locale} does not scroll sideways`, async ({
      browser,
      e2e,
    }) => {
      const { context, page } = await open(browser, e2e, locale, width, { textSize: 200 });
      await page.goto(path);
      if (ready) await expect(page.getByTestId(ready).first()).toBeVisible();
      else await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // The text is really twice as large.
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe(
        '32px',
      );
      const result = await sideways(page);
      expect(result.scrollWidth).toBeLessThanOrEqual(result.width);
      expect(result.headerInside).toBe(true);
      await context.close();
    });
  }
});

test.describe('the bell panel at 200 % text', () => {
  for (const [locale, width] of [
    // Seen: at 320 px in French a notification taller than the 280 px list passed under the
    // panel's footer.
    ['fr', 320],
    // Same class: Arabic at 360 px.
    ['ar', 360],
  ] as const) {
    test(`a long notification never passes under the footer (${locale}, ${width} px)`, async ({
      browser,
      e2e,
    }) => {
      const customer = await newCustomer('Lina Bouzid-Abderrahmane');
      const reserved = await newPendingBooking(customer);
      await staffSetStatus(reserved.id, 'reserved');
      const rejected = await newPendingBooking(customer);
      await staffSetStatus(rejected.id, 'rejected');
      const { context, page } = await open(browser, e2e, locale, width, { textSize: 200 });
      await page.goto('/sign-in?redirectUrl=%2Fmybookings');
      await page.locator('main input[type="email"]').fill(customer.email);
      await page.locator('main input[type="password"]').fill(customer.password);
      await page.locator('main button[type="submit"]').click();
      await expect(page).toHaveURL(/\/mybookings$/);
      await expect(page.getByTestId('notification-dot')).toBeVisible({ timeout: 20_000 });
      await page.getByTestId('notification-bell').click();
      const items = page.getByTestId('notification-item');
      await expect(items).toHaveCount(2);
      // Each notification is taller than the list's 280 px at this size: the case at hand.
      expect((await items.first().boundingBox())!.height).toBeGreaterThan(280);

      // The audit's hit-tests (top, bottom, each control centred) and its "cut" check: no
      // notification passes under the panel's title row or footer.
      const covered = (await auditLayout(page, 'bell', { focusWalk: false })).filter((f) =>
        /\[(covered|cut)\]/.test(f),
      );
      expect(covered).toEqual([]);
      // The panel stays on the screen and scrolls as one.
      const body = page.getByTestId('notification-panel-body');
      const box = (await body.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(width === 320 ? 568 : 780);
      // The footer's link is reached at the end of the scroll, and takes the click.
      const footer = page.getByRole('link', { name: locale === 'fr' ? /Voir toute/ : /عرض/ });
      await footer.scrollIntoViewIfNeeded();
      await expect(footer).toBeInViewport();
      await footer.click();
      await expect(page).toHaveURL(/activity-log$/);
      await context.close();
    });
  }
});

/**
 * Where the last character of `text` is drawn against its first: a Latin name isolated in an
 * Arabic line keeps its full stop at its end (to the right), a broken one shows ".Amina L".
 */
async function readsLeftToRight(page: Page, text: string): Promise<boolean> {
  return page.evaluate((wanted) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const value = node.nodeValue ?? '';
      const at = value.indexOf(wanted);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      const first = range.getBoundingClientRect();
      range.setStart(node, at + wanted.length - 1);
      range.setEnd(node, at + wanted.length);
      const last = range.getBoundingClientRect();
      return last.left > first.left;
    }
    throw new Error(`"${wanted}" is not on the page`);
  }, text);
}

test.describe('mixed scripts', () => {
  test('Latin names in the Arabic UI keep their order (home testimonials, car names)', async ({
    browser,
    e2e,
  }) => {
    const { context, page } = await open(browser, e2e, 'ar', 390);
    await page.goto('/home');
    await expect(page.getByText('Yacine M.')).toBeVisible();
    // Seen: ".Yacine M" (the full stop at the start of the line in an RTL paragraph).
    expect(await readsLeftToRight(page, 'Yacine M.')).toBe(true);
    await expect(page.getByText('Yacine M.')).toHaveJSProperty('tagName', 'BDI');
    // Same class: a car's name in its card.
    await page.goto('/cars');
    const link = page.getByTestId('car-link').first();
    await expect(link.locator('bdi')).toHaveCount(1);
    await context.close();
  });

  for (const [locale, name, request, rtl] of [
    // Seen: an Arabic text in the French UI ("! Désolé" the other way round).
    ['fr', 'أمينة بن علي!', 'كرسي أطفال من فضلكم!', true],
    // Same class: a Latin name in the Arabic UI (".Amina L").
    ['ar', 'Amina L.', 'Siège bébé, merci !', false],
  ] as const) {
    test(`the wizard review in ${locale} keeps a name and a request of the other script in order`, async ({
      browser,
      e2e,
    }) => {
      const { context, page } = await open(browser, e2e, locale, 390);
      const headers = { apikey: e2e.serviceRoleKey, authorization: `Bearer ${e2e.serviceRoleKey}` };
      const cars = await fetch(`${e2e.apiUrl}/rest/v1/cars?active=is.true&select=id&limit=1`, {
        headers,
      }).then((r) => r.json() as Promise<Array<{ id: string }>>);
      const location = await fetch(
        `${e2e.apiUrl}/rest/v1/locations?active=is.true&kind=eq.airport&select=id&limit=1`,
        { headers },
      ).then((r) => r.json() as Promise<Array<{ id: string }>>);
      const day = (n: number) =>
        new Date(Date.now() + (60 + n) * 86_400_000).toISOString().slice(0, 10);
      await page.goto(`/cars/book?car=${cars[0]!.id}&start=${day(0)}T10:00&end=${day(2)}T10:00`);
      // One step at a time: a tap while a step validates adds nothing (a double tap never skips a
      // step, location-step.test.tsx), so the next click waits for the next step.
      await page.getByTestId('wizard-next').click();
      await expect(page.getByTestId('wizard-step')).toContainText('2');
      await page.getByTestId('wizard-next').click();
      await expect(page.getByTestId('wizard-step')).toContainText('3');
      await page.locator('select[name="pickup_location_id"]').selectOption(location[0]!.id);
      await page.locator('input[name="driver_option"][value="self"]').check();
      await page.getByTestId('licence-input').setInputFiles({
        name: 'permis.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
      });
      await page.getByTestId('wizard-next').click();
      await expect(page.getByTestId('wizard-step')).toContainText('4');
      // The running total follows the options as they are chosen.
      const running = page.getByTestId('running-total');
      await expect(running).toContainText('DZD');
      const before = (await running.textContent()) ?? '';
      await page.locator('input[name="extras"]').first().check();
      await expect(running).not.toHaveText(before);
      await page.locator('input[name="extras"]').first().uncheck();
      await expect(running).toHaveText(before);
      await page.locator('input[name="guest_name"]').fill(name);
      // A phone as Algerians type it.
      await page.locator('input[name="guest_phone"]').fill('0555 12 34 56');
      await page.locator('input[name="guest_email"]').fill(`looks-${locale}@kiraa.test`);
      await page.locator('textarea[name="additional_requests"]').fill(request);
      await page.getByTestId('wizard-next').click();
      await expect(page.getByTestId('wizard-step')).toContainText('5');
      // Arabic is drawn right to left (its last "!" left of its first letter), Latin the other
      // way, whatever the UI's direction.
      expect(await readsLeftToRight(page, name)).toBe(!rtl);
      expect(await readsLeftToRight(page, request)).toBe(!rtl);
      // Accepted and shown once normalised.
      await expect(page.locator('main dl').first()).toContainText('+213555123456');

      // Every "Modifier" is named for what it edits (nine of them: nine names), and the
      // current step is marked for screen readers.
      const edits = page.getByTestId('review-edit');
      const names = await edits.evaluateAll((buttons) =>
        buttons.map((b) => (b.textContent ?? '').replace(/\s+/g, ' ').trim()),
      );
      expect(names.length).toBeGreaterThan(5);
      expect(new Set(names).size).toBe(names.length);
      await expect(edits.first()).toHaveAccessibleName(names[0]!);
      await expect(page.locator('[aria-current="step"]')).toHaveCount(1);
      await expect(page.locator('[aria-current="step"]')).toHaveText(/.+/);
      await context.close();
    });
  }
});

test.describe('the floating contact button', () => {
  for (const [locale, width, path, control] of [
    // Seen: the home search button at 360 px (at 200 % text it sits right under the button).
    ['fr', 360, '/home', 'main form button[type="submit"]'],
    ['ar', 360, '/home', 'main form button[type="submit"]'],
    // Same class: the sort select of the car list.
    ['ar', 320, '/cars', 'main select[name="sort"]'],
  ] as const) {
    test(`never covers a control: ${path} at ${width} px in ${locale}`, async ({
      browser,
      e2e,
    }) => {
      const { context, page } = await open(browser, e2e, locale, width, { textSize: 200 });
      await page.goto(path);
      // The app's page, not index.html's copy of it: the copy has the control and the button
      // too, and an element of the copy read just before the app replaces it has no box.
      await expect(page.locator('[data-first-screen]')).toHaveCount(0);
      const target = page.locator(control).first();
      await expect(target).toBeVisible();
      // The page at its full length (the list of cars under the sort select).
      if (path === '/cars') await expect(page.getByTestId('car-link').first()).toBeVisible();
      const contact = page.locator('[data-floating-contact]');
      // Bring the control under the button's corner, as a traveller scrolling would, with the
      // page's own geometry: a button already aside is invisible, which has no Playwright box.
      const box = await page.getByTestId('contact-button').evaluate((el) => {
        const rect = el.getBoundingClientRect();
        return { y: rect.y, height: rect.height };
      });
      await page.evaluate(
        ([selector, y]) => {
          const el = document.querySelector(selector)!;
          const rect = el.getBoundingClientRect();
          window.scrollBy(0, rect.top + rect.height / 2 - y);
        },
        [control, box.y + box.height / 2] as const,
      );
      await expect(contact).toHaveAttribute('data-aside', 'true');
      await expect(page.getByTestId('contact-button')).toBeHidden();
      // The control takes the click.
      const hit = await page.evaluate((selector) => {
        const el = document.querySelector(selector)!;
        const r = el.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!at && (at === el || el.contains(at));
      }, control);
      expect(hit).toBe(true);
      // Clear of controls again (none left in the page), it comes back.
      await page.evaluate(() => {
        for (const el of document.querySelectorAll<HTMLElement>('main *')) {
          if (el.matches('button, input, select, textarea, a, label')) el.style.display = 'none';
        }
        window.dispatchEvent(new Event('resize'));
      });
      await expect(contact).not.toHaveAttribute('data-aside', 'true');
      await expect(page.getByTestId('contact-button')).toBeVisible();
      await context.close();
    });
  }
});

test.describe('car photos offline after a first visit', () => {
  for (const [locale, path, picture] of [
    // Seen: the first cards of the list, loaded before the service worker took control.
    ['fr', '/cars', 'main li img'],
    // Same class: the car page's gallery.
    ['ar', '/cars/renault-clio-5-2023', 'main section img'],
  ] as const) {
    test(`${path} in ${locale}: photos shown offline`, async ({ browser, e2e }) => {
      const { context, page } = await open(browser, e2e, locale, 390, {
        serviceWorkers: 'allow',
      });
      await page.goto(path);
      const first = page.locator(picture).first();
      await expect(first).toBeVisible();
      const src = await first.evaluate((img: HTMLImageElement) => img.currentSrc || img.src);
      const attribute = (await first.getAttribute('src')) ?? '';
      // Visible is not loaded: the box is drawn at its size before the bytes arrive (slow under
      // load), so wait for the picture itself.
      await expect
        .poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      // The worker installs and takes control after the page loaded: the picture never went
      // through it; the page hands it over.
      await workerInControl(page);
      await expect
        .poll(
          () =>
            page.evaluate(
              async (url) => !!(await (await caches.open('kiraa-car-images')).match(url)),
              src,
            ),
          { timeout: 15_000 },
        )
        .toBe(true);

      await context.setOffline(true);
      await page.reload();
      // The same picture, drawn (not the "photo unavailable" placeholder).
      const again = page.locator(`main img[src="${attribute}"]`).first();
      await expect(again).toBeVisible();
      await expect
        .poll(() => again.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      await context.close();
    });
  }
});

/** A 2×2 PNG: a real picture for the thumbnail. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

test.describe('the licence field', () => {
  for (const locale of ['fr', 'ar'] as const) {
    test(`in ${locale}: a button, a thumbnail or a PDF icon, and a refused file keeps the attached one`, async ({
      browser,
      e2e,
    }) => {
      const { context, page } = await open(browser, e2e, locale, 360);
      const headers = { apikey: e2e.serviceRoleKey, authorization: `Bearer ${e2e.serviceRoleKey}` };
      const cars = await fetch(`${e2e.apiUrl}/rest/v1/cars?active=is.true&select=id&limit=1`, {
        headers,
      }).then((r) => r.json() as Promise<Array<{ id: string }>>);
      const day = (n: number) =>
        new Date(Date.now() + (90 + n) * 86_400_000).toISOString().slice(0, 10);
      await page.goto(`/cars/book?car=${cars[0]!.id}&start=${day(0)}T10:00&end=${day(2)}T10:00`);
      // One step at a time: a tap while a step validates adds nothing (a double tap never skips a
      // step, location-step.test.tsx), so the next click waits for the next step.
      await page.getByTestId('wizard-next').click();
      await expect(page.getByTestId('wizard-step')).toContainText('2');
      await page.getByTestId('wizard-next').click();
      await expect(page.getByTestId('wizard-step')).toContainText('3');
      await page.locator('input[name="driver_option"][value="self"]').check();

      // Seen: the browser's "Choose file / No file chosen". Now a button of ours; the input is
      // there for the keyboard and screen readers only.
      const input = page.getByTestId('licence-input');
      const choose = page.getByTestId('licence-input-choose');
      await expect(choose).toBeVisible();
      expect((await input.boundingBox())!.width).toBeLessThanOrEqual(1);
      await input.focus();
      await expect(input).toBeFocused();

      // A picture: its thumbnail.
      await input.setInputFiles({ name: 'permis.png', mimeType: 'image/png', buffer: PNG });
      const thumbnail = page.getByTestId('file-thumbnail');
      await expect(thumbnail).toBeVisible();
      await expect
        .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      // Same class: a PDF gets a document icon.
      await input.setInputFiles({
        name: 'permis.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
      });
      await expect(page.getByTestId('licence-input-name')).toContainText('permis.pdf');
      await expect(page.getByTestId('file-icon')).toBeVisible();
      await expect(thumbnail).toHaveCount(0);

      // A file that is neither a picture nor a PDF is refused: the PDF stays, and it says so.
      await input.setInputFiles({
        name: 'notes.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('plain text, not a PDF'),
      });
      await expect(page.locator(`[id="${await input.getAttribute('id')}-error"]`)).toBeVisible();
      await expect(page.getByTestId('licence-input-kept')).toBeVisible();
      await expect(page.getByTestId('licence-input-name')).toContainText('permis.pdf');
      await context.close();
    });
  }
});

test.describe('money', () => {
  for (const locale of ['fr', 'ar'] as const) {
    test(`in ${locale}: the trip's total for the chosen dates on the list and the car page`, async ({
      browser,
      e2e,
    }) => {
      const { context, page } = await open(browser, e2e, locale, 390);
      const cars = await fetch(
        `${e2e.apiUrl}/rest/v1/cars?slug=eq.renault-clio-5-2023&select=daily_rate_dzd`,
        { headers: { apikey: e2e.serviceRoleKey, authorization: `Bearer ${e2e.serviceRoleKey}` } },
      ).then((r) => r.json() as Promise<Array<{ daily_rate_dzd: number }>>);
      // Three days and an hour: four days billed (a started day is due).
      const expected = formatDzd(cars[0]!.daily_rate_dzd * 4, locale);
      const dates = 'start=2027-05-10T10:00&end=2027-05-13T11:00';
      await page.goto(`/cars?q=Clio&${dates}`);
      const card = page
        .locator('li', { has: page.getByTestId('car-link').filter({ hasText: 'Clio 5' }) })
        .first();
      await expect(card.getByTestId('trip-total')).toContainText(expected);
      await expect(card.getByTestId('trip-total')).toContainText(locale === 'fr' ? '4 jours' : '4');
      // Without dates, the daily rate alone.
      await page.goto('/cars?q=Clio');
      await expect(page.getByTestId('car-link').first()).toBeVisible();
      await expect(page.getByTestId('trip-total')).toHaveCount(0);

      await page.goto(`/cars/renault-clio-5-2023?${dates}`);
      await expect(page.getByTestId('trip-total')).toContainText(expected);
      await context.close();
    });
  }
});
