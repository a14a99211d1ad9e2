import { describe, expect, it } from 'vitest';

import { prerender } from '@/app/prerender';

/** The markup as a document fragment, to query it. */
function parse(html: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
}

describe('prerender (the first screen written into index.html at build time)', () => {
  it("renders the home page's shell, hero and the best-rated cars' skeleton in French", async () => {
    const page = parse(await prerender('/home', 'fr'));
    expect(page.querySelectorAll('header')).toHaveLength(1);
    expect(page.querySelectorAll('main')).toHaveLength(1);
    expect(page.querySelector('h1')?.textContent).toBe('Louez une voiture partout en Algérie');
    expect(page.querySelector('form[aria-label="Rechercher une voiture"]')).not.toBeNull();
    const featured = page.querySelector('section[aria-labelledby="home-featured"]');
    expect(featured?.querySelectorAll('ul[aria-hidden="true"] > li.animate-pulse')).toHaveLength(3);
    // A first visit's header: signed out (index.html drops the link on a signed-in device).
    expect(page.querySelector('[data-testid="sign-in-link"]')).not.toBeNull();
  });

  it("renders the car list's skeleton in Arabic", async () => {
    const page = parse(await prerender('/cars', 'ar'));
    expect(page.querySelector('h1')?.textContent).toBe('سياراتنا');
    expect(page.querySelectorAll('main ul[aria-hidden="true"] > li.animate-pulse')).toHaveLength(6);
    expect(page.querySelector('[data-testid="car-link"]')).toBeNull();
  });

  it("renders the booking wizard's frame, not the wizard (its code is not loaded)", async () => {
    const page = parse(await prerender('/cars/book', 'en', []));
    expect(page.querySelector('main h1')?.textContent).toBe('Book a car');
    expect(page.querySelector('main [role="status"]')).not.toBeNull();
    expect(page.querySelector('main form, main input')).toBeNull();
  });

  it('renders the home page in English after Arabic (each language its own catalogs)', async () => {
    await prerender('/home', 'ar');
    const page = parse(await prerender('/home', 'en'));
    expect(page.querySelector('h1')?.textContent).toBe('Rent a car anywhere in Algeria');
  });
});
