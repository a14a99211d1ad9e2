import { expect, test } from './support/fixtures.ts';
import { signInStaffThroughUi, signInThroughUi } from './support/session.ts';

test.describe('app shell', () => {
  test('the root and unknown paths land on /home', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/home$/);
    await page.goto('/no/such/page?x=1');
    await expect(page).toHaveURL(/\/home$/);
    await expect(
      page.getByRole('banner').getByRole('link', { name: 'Kiraa, accueil' }),
    ).toBeVisible();
  });

  test('the header offers sign-in to visitors; the logo leads home', async ({ page }) => {
    await page.goto('/qa');
    await expect(page.getByTestId('sign-in-link')).toHaveAttribute(
      'href',
      '/sign-in?redirectUrl=%2Fqa',
    );
    await page.getByRole('link', { name: 'Kiraa, accueil' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('the drawer: 330 px from the left, the spec entries, focus trapped, Esc returns focus', async ({
    page,
  }) => {
    await page.goto('/home');
    const menuButton = page.getByTestId('menu-button');
    await menuButton.click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    // Once its slide-in is over.
    await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0);
    await drawer.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
    expect((await drawer.boundingBox())?.width).toBe(330);
    const nav = drawer.getByRole('navigation', { name: 'Navigation principale' });
    await expect(nav.getByRole('listitem')).toHaveText([
      'Accueil',
      'Voitures',
      'Trouver ma réservation',
      'Q&A',
      'Contacts',
      /Histoires & Blogs/,
    ]);

    // Tab never leaves the drawer.
    for (let i = 0; i < 10; i += 1) {
      await page.keyboard.press('Tab');
      expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(menuButton).toBeFocused();

    // Choosing an entry navigates and closes the drawer.
    await menuButton.click();
    await drawer.getByRole('link', { name: 'Q&A' }).click();
    await expect(page).toHaveURL(/\/qa$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Questions fréquentes');
  });

  test('a protected page sends a visitor to sign-in with redirectUrl and "please login" for 3 s', async ({
    page,
  }) => {
    // The page's clock is paused before the page loads and moved only by the test: the 3 s are
    // measured on it, however slowly a busy machine gets the page there.
    await page.clock.install();
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await page.goto('/concepts/account/activity-log');
    await expect(page).toHaveURL(/\/sign-in\?redirectUrl=%2Fconcepts%2Faccount%2Factivity-log$/);
    const notice = page.getByTestId('toast').filter({ hasText: 'Veuillez vous connecter' });
    await expect(notice).toBeVisible();
    const region = page.locator('section[data-placement="top-center"]');
    await expect(region.getByText('Veuillez vous connecter')).toBeVisible();
    const box = await notice.boundingBox();
    expect(box!.y).toBeLessThan(100);
    await page.clock.runFor(2900);
    await expect(notice).toBeVisible();
    await page.clock.runFor(200);
    await expect(notice).toBeHidden();
  });

  test('after signing in, the visitor returns to the protected page; a wrong role gets access-denied', async ({
    page,
  }) => {
    await page.goto('/access-denied');
    await expect(page).toHaveURL(/\/sign-in\?redirectUrl=%2Faccess-denied$/);
    await signInThroughUi(page, undefined, { redirectUrl: '/access-denied' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Accès refusé');
    // A customer on a staff page (role admin) is sent to /access-denied.
    await page.goto('/staff');
    await expect(page).toHaveURL(/\/access-denied$/);
    // Signed in: the menu shows the booking entry instead of the guest lookup.
    await page.getByTestId('menu-button').click();
    const nav = page.getByRole('dialog', { name: 'Menu' });
    await expect(nav.getByRole('link', { name: 'Réservation' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Trouver ma réservation' })).toHaveCount(0);
  });

  test('the contact button opens the three WhatsApp lines in new tabs', async ({ page }) => {
    await page.goto('/home');
    await page.getByRole('button', { name: 'Nous contacter' }).click();
    const card = page.getByTestId('contact-card');
    await expect(card).toBeVisible();
    const links = card.getByRole('link');
    await expect(links).toHaveCount(3);
    await expect(links).toContainText([
      'Service réservation',
      'Support technique',
      'Service livraison',
    ]);
    const hrefs = await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    for (const href of hrefs) {
      expect(href).toMatch(/^https:\/\/wa\.me\/213\d{9}\?text=/);
      expect(decodeURIComponent(href.split('text=')[1]!)).toMatch(/^Bonjour Kiraa/);
    }
    expect(new Set(hrefs.map((h) => h.split('?')[0])).size).toBe(3);
    for (const target of await links.evaluateAll((as) => as.map((a) => a.getAttribute('target')))) {
      expect(target).toBe('_blank');
    }
    await page.keyboard.press('Escape');
    await expect(card).toBeHidden();
    await expect(page.getByRole('button', { name: 'Nous contacter' })).toBeFocused();
  });

  test('the footer links open the legal pages', async ({ page }) => {
    await page.goto('/home');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(
      `© ${new Date().getUTCFullYear()} Kiraa. Tous droits réservés.`,
    );
    await footer.getByRole('link', { name: 'Conditions générales' }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Conditions générales de location',
    );
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: 'Politique de confidentialité' })
      .click();
    await expect(page).toHaveURL(/\/privacy-policy$/);
    await expect(page.getByText(/loi n° 18-07/).first()).toBeVisible();
  });

  test('the theme survives a reload and applies before the app starts', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/qa');
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    await page.getByTestId('theme-switch').click();
    await expect(page.locator('html')).toHaveClass(/dark/);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('theme') ?? '{}'));
    expect(stored).toMatchObject({
      mode: 'dark',
      controlSize: 'md',
      layout: { type: 'topBarClassic' },
    });
    // No flash: the class is on <html> before any script of the app runs.
    await page.route(/\/assets\/index-.*\.js$/, (route) => route.abort());
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/dark/);
    await page.unroute(/\/assets\/index-.*\.js$/);
    await page.reload();
    await expect(page.getByTestId('theme-switch')).toHaveAccessibleName('Passer au thème clair');
  });

  test('a first visit follows the system colour scheme', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/qa');
    await expect(page.locator('html')).toHaveClass(/dark/);
  });

  test('the FAQ searches and filters by category, keeping them in the URL', async ({ page }) => {
    await page.goto('/qa');
    await expect(page.getByTestId('faq-count')).toHaveText(/^\d+ questions$/);
    await page.getByLabel('Rechercher une question').fill('caution');
    await expect(page).toHaveURL(/q=caution/);
    const items = page.getByTestId('faq-list').getByRole('listitem');
    await expect(items.first()).toContainText(/caution/i);
    await page.getByRole('button', { name: 'Prise en charge' }).click();
    await expect(page.getByRole('button', { name: 'Prise en charge' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await page.getByLabel('Rechercher une question').fill('');
    await expect(items).toHaveCount(4);
    await items.first().getByText('Où puis-je récupérer la voiture ?').click();
    await expect(items.first().getByText(/Houari-Boumediene/)).toBeVisible();
    await page.getByLabel('Rechercher une question').fill('zzzz introuvable');
    await expect(page.getByText('Aucune question ne correspond à votre recherche.')).toBeVisible();
  });

  test('works at 320 px wide without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    for (const path of ['/home', '/qa', '/contacts', '/terms']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      // The app's page, not index.html's copy of the first screen.
      await expect(page.locator('[data-first-screen]')).toHaveCount(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });

  test('signed in, at 320 px, in French and Arabic: no sideways scrolling, the drawer fits', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    // The admin has the most in the header and the menu (bell, avatar, the agency desk).
    await signInStaffThroughUi(page, '/staff');
    for (const locale of ['fr', 'ar']) {
      await page.evaluate((value) => localStorage.setItem('locale', value), locale);
      for (const path of ['/cars', '/mybookings', '/staff']) {
        await page.goto(path);
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        await expect(page.locator('[data-first-screen]')).toHaveCount(0);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - innerWidth,
        );
        expect(overflow, `${locale} ${path}`).toBeLessThanOrEqual(0);
      }
      await page.getByTestId('menu-button').click();
      const drawer = page.getByRole('dialog');
      // Once its slide-in is over: inside the screen, edge to edge.
      await expect
        .poll(
          async () => {
            const box = (await drawer.boundingBox())!;
            return [Math.round(box.x), Math.round(box.x + box.width)];
          },
          { message: locale },
        )
        .toEqual([0, 320]);
      await expect(drawer.getByRole('link', { name: /Espace agence|مساحة الوكالة/ })).toBeVisible();
      await page.keyboard.press('Escape');
    }
  });

  test('a skip link leads keyboard users to the main content', async ({ page }) => {
    await page.goto('/contacts');
    // The app is on screen (the first render is a transition: it may end after `load`).
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Aller au contenu principal' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('#main')).toBeFocused();
  });

  test('the brand bar paints before the app’s code has run, and the app replaces it', async ({
    page,
  }) => {
    // Scripts held back: what a slow network shows first. A page whose first screen is not
    // written into index.html (/home and /cars are: tests/e2e/first-screen.spec.ts).
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/qa');
    const boot = page.locator('#root > div[aria-hidden="true"]');
    await expect(boot).toBeVisible();
    await expect(boot).toHaveText('Kiraa');
    expect((await boot.boundingBox())?.height).toBe(64);

    await page.unroute('**/assets/*.js');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(boot).toHaveCount(0);
  });
});
