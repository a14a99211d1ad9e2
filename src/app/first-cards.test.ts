import { I18nProvider } from '@lingui/react';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { prerender, prerenderCards, type CardTemplates } from '@/app/prerender';
import type { Locale } from '@/domain/locale';
import type { Car } from '@/domain/rows';
import { i18n } from '@/infra/i18n';

import { CarCard } from '@/features/catalogue/car-card';
import { sortCars } from '@/features/catalogue/filters';
import { FIRST_CARD_LISTS } from '@/features/catalogue/first-cards';
import { firstCardsSnapshot } from '@/features/catalogue/first-cards-snapshot';
import { carLabels } from '@/features/catalogue/labels';
import { makeCar, syntheticCars } from '@/features/catalogue/testing/synthetic-cars';

import { cardTemplateHtml, firstCardsScript } from '../../scripts/first-cards.ts';

const page = globalThis as unknown as {
  __kiraaDrawFirstCards?: () => void;
  __kiraaFirstScreenId?: string;
  __kiraaFirstCars?: Promise<unknown>;
  __kiraaFirstCards?: { list: string; cards: Element[]; picture?: Element | null };
};

/** Cars that exercise every variant and every value the cards show. */
function fleet(): Car[] {
  return [
    ...syntheticCars(16).map((car, i) => ({
      ...car,
      images:
        i % 3 === 0
          ? []
          : [i % 2 ? `https://cdn.example/cars/${car.slug}.webp` : `/cars/${car.slug}.webp`],
    })),
    makeCar({
      name: 'Éclat <b>gras</b>',
      rating_avg: 5,
      rating_count: 3,
      images: ['/cars/x.webp'],
    }),
    makeCar({ name: 'Eclair __name__', rating_avg: 5, rating_count: 3, body: 'limousine' }),
    makeCar({
      name: 'Zoé',
      rating_avg: 4.25,
      rating_count: 1,
      fuel: 'electric',
      transmission: 'automatic',
    }),
    makeCar({ name: 'Demi étoile', rating_avg: 0.5, rating_count: 1 }),
    makeCar({ name: 'Retirée', rating_avg: 5, rating_count: 99, active: false }),
    makeCar({ name: 'Sans avis mais noté', rating_avg: 4, rating_count: 0 }),
  ];
}

/** The markup as a comparable value: tags, sorted attributes, merged text, no comments. */
function canonical(node: Node): unknown {
  if (node.nodeType === Node.TEXT_NODE) return node.nodeValue;
  const element = node as Element;
  const attributes = [...element.attributes]
    .filter((a) => !['data-testid', 'data-first-card', 'data-discover'].includes(a.name))
    .map((a) => `${a.name}=${a.value}`)
    .sort();
  const children: unknown[] = [];
  for (const child of element.childNodes) {
    if (child.nodeType === Node.COMMENT_NODE) continue;
    const value = canonical(child);
    if (typeof value === 'string' && typeof children.at(-1) === 'string') {
      children[children.length - 1] = `${children.at(-1) as string}${value}`;
    } else children.push(value);
  }
  return { tag: element.tagName.toLowerCase(), attributes, children };
}

/** What the app's list shows first: CarCard for each car, as the page renders them. */
function appCards(cars: Car[], locale: Locale, screen: 'home' | 'cars'): Element[] {
  const { limit, eager } = FIRST_CARD_LISTS[screen]!;
  const shown = sortCars(
    cars.filter((car) => car.active),
    'recommended',
  ).slice(0, limit);
  const labels = carLabels(i18n);
  const cards = shown.map((car, index) =>
    createElement(CarCard, {
      key: car.id,
      car,
      labels,
      search: '',
      eager: index < eager,
      priority: index === 0 && eager > 0,
    }),
  );
  const html = renderToString(
    createElement(I18nProvider, {
      i18n,
      children: createElement(StaticRouter, { location: '/cars' }, cards),
    }),
  );
  const list = document.createElement('ul');
  list.innerHTML = html;
  // Without React's hints for eager pictures (<link rel="preload">): the cards only.
  return [...list.children].filter((child) => child.tagName === 'LI');
}

/** index.html on a first visit to `screen`: its copy in #root, the card templates, the script. */
async function firstVisit(
  screen: 'home' | 'cars',
  locale: Locale,
  rows: Promise<unknown>,
  templates?: CardTemplates,
) {
  const cards = templates ?? (await prerenderCards(locale));
  const copy = await prerender(`/${screen}`, locale);
  document.body.innerHTML =
    `<div id="root"><div data-first-screen="${screen}-${locale}">${copy}</div></div>` +
    cardTemplateHtml(locale, cards);
  page.__kiraaFirstScreenId = `${screen}-${locale}`;
  page.__kiraaFirstCars = rows;
  new Function(firstCardsScript({ [locale]: cards }))();
  await rows.catch(() => null);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return document.querySelector(`[data-first-cards="${FIRST_CARD_LISTS[screen]!.list}"]`)!;
}

afterEach(() => {
  delete page.__kiraaDrawFirstCards;
  delete page.__kiraaFirstScreenId;
  delete page.__kiraaFirstCars;
  delete page.__kiraaFirstCards;
  document.body.innerHTML = '';
  history.replaceState(null, '', '/');
});

describe("index.html's first cards", () => {
  for (const locale of ['fr', 'en', 'ar'] as const) {
    it(`draws on /cars the cards the app's list shows first, as its CarCard renders them (${locale})`, async () => {
      const cars = fleet();
      history.replaceState(null, '', '/cars');
      const list = await firstVisit('cars', locale, Promise.resolve(cars));
      const expected = appCards(cars, locale, 'cars');
      expect(expected).toHaveLength(FIRST_CARD_LISTS.cars!.limit);
      expect([...list.children].map(canonical)).toEqual(expected.map(canonical));
      // Marked as the copy's, and handed over to the app.
      expect(list.querySelectorAll('[data-first-card]')).toHaveLength(expected.length);
      expect(list.querySelector('[data-testid]')).toBeNull();
      expect(page.__kiraaFirstCards?.list).toBe('cars');
      expect(page.__kiraaFirstCards?.cards).toEqual([...list.children]);
      // The first car has no photo: nothing for the app's starter to await.
      expect(list.children[0]!.querySelector('img')).toBeNull();
      expect(page.__kiraaFirstCards?.picture).toBeNull();
    });
  }

  it("hands the app's starter the list's first photo, the page's largest paint", async () => {
    const cars = fleet().filter((car) => car.images.length > 0);
    history.replaceState(null, '', '/cars');
    const list = await firstVisit('cars', 'fr', Promise.resolve(cars));
    const first = list.children[0]!.querySelector('img');
    expect(first?.getAttribute('fetchpriority')).toBe('high');
    expect(page.__kiraaFirstCards?.picture).toBe(first);
  });

  it('writes names as text, never as markup', async () => {
    history.replaceState(null, '', '/cars');
    const list = await firstVisit('cars', 'fr', Promise.resolve(fleet()));
    const names = [...list.querySelectorAll('bdi')].map((bdi) => bdi.textContent);
    const eclair = names.indexOf('Eclair __name__');
    expect(eclair).toBeGreaterThanOrEqual(0);
    // French order, as the app's list: "Eclair" before "Éclat".
    expect(names[eclair + 1]).toBe('Éclat <b>gras</b>');
    expect(list.querySelector('b')).toBeNull();
  });

  it("draws the home page's best-rated cars, pictures lazy", async () => {
    const cars = fleet();
    history.replaceState(null, '', '/home');
    const list = await firstVisit('home', 'ar', Promise.resolve(cars));
    expect([...list.children].map(canonical)).toEqual(appCards(cars, 'ar', 'home').map(canonical));
    expect(list.children).toHaveLength(6);
    expect(page.__kiraaFirstCards?.list).toBe('featured');
    // Below the hero: not the page's largest paint, nothing for the app's starter to await.
    expect(page.__kiraaFirstCards?.picture).toBeNull();
  });

  it('leaves the grey cards when the first page failed, was empty or has no active car', async () => {
    history.replaceState(null, '', '/cars');
    const templates = await prerenderCards('fr');
    for (const rows of [
      Promise.resolve(null),
      Promise.resolve([]),
      Promise.resolve([makeCar({ active: false })]),
    ]) {
      const list = await firstVisit('cars', 'fr', rows, templates);
      expect(list.querySelectorAll('li.animate-pulse')).toHaveLength(6);
      expect(page.__kiraaFirstCards).toBeUndefined();
    }
  });

  it('draws nothing with filters in the URL: the list is the app’s to filter', async () => {
    history.replaceState(null, '', '/cars?sort=price_asc');
    const list = await firstVisit('cars', 'fr', Promise.resolve(fleet()));
    expect(list.querySelector('[data-first-card]')).toBeNull();
  });

  it('draws in the same task as the copy when the cars came first (a repeat visit)', async () => {
    history.replaceState(null, '', '/cars');
    const cards = await prerenderCards('fr');
    const copy = await prerender('/cars', 'fr');
    const cars = fleet();
    // index.html's order: the card templates and the script first, then the copies.
    document.body.innerHTML = `<div id="root"></div>${cardTemplateHtml('fr', cards)}`;
    page.__kiraaFirstCars = Promise.resolve(cars);
    new Function(firstCardsScript({ fr: cards }))();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The cars are read; no copy yet, nothing drawn.
    expect(document.querySelector('[data-first-card]')).toBeNull();
    // What the chooser does with the copy (scripts/first-screen.ts): in, then draw, no await.
    const root = document.getElementById('root')!;
    root.innerHTML = `<div data-first-screen="cars-fr">${copy}</div>`;
    page.__kiraaFirstScreenId = 'cars-fr';
    page.__kiraaDrawFirstCards!();
    const list = root.querySelector('[data-first-cards="cars"]')!;
    expect([...list.children].map(canonical)).toEqual(appCards(cars, 'fr', 'cars').map(canonical));
    // Once: a second call changes nothing.
    const drawn = [...list.children];
    page.__kiraaDrawFirstCards!();
    expect([...list.children]).toEqual(drawn);
  });

  for (const locale of ['fr', 'en', 'ar'] as const) {
    it(`draws the app's saved first cards as its CarCard renders them, without sorting or formatting (${locale})`, async () => {
      history.replaceState(null, '', '/cars');
      const cars = fleet();
      const cards = await prerenderCards(locale);
      const copy = await prerender('/cars', locale);
      const expected = appCards(cars, locale, 'cars').map(canonical);
      expect(expected).toHaveLength(FIRST_CARD_LISTS.cars!.limit);
      document.body.innerHTML = `<div id="root"></div>${cardTemplateHtml(locale, cards)}`;
      // What the page saved (JSON in localStorage), as index.html's head reads it back.
      page.__kiraaFirstCars = Promise.resolve(JSON.parse(JSON.stringify(firstCardsSnapshot(cars))));
      new Function(firstCardsScript({ [locale]: cards }))();
      await new Promise((resolve) => setTimeout(resolve, 0));
      const root = document.getElementById('root')!;
      root.innerHTML = `<div data-first-screen="cars-${locale}">${copy}</div>`;
      page.__kiraaFirstScreenId = `cars-${locale}`;
      const collator = vi.spyOn(Intl, 'Collator');
      const numberFormat = vi.spyOn(Intl, 'NumberFormat');
      page.__kiraaDrawFirstCards!();
      expect(collator).not.toHaveBeenCalled();
      expect(numberFormat).not.toHaveBeenCalled();
      vi.restoreAllMocks();
      const list = root.querySelector('[data-first-cards="cars"]')!;
      expect([...list.children].map(canonical)).toEqual(expected);
    });
  }

  it('draws nothing once the app has replaced the copy', async () => {
    history.replaceState(null, '', '/cars');
    let deliver: (rows: Car[]) => void = () => {};
    const rows = new Promise<Car[]>((resolve) => (deliver = resolve));
    const pending = firstVisit('cars', 'fr', rows);
    await expect.poll(() => document.querySelector('[data-first-cards="cars"]')).not.toBeNull();
    const copyList = document.querySelector('[data-first-cards="cars"]')!;
    // The app's first render clears #root.
    document.getElementById('root')!.replaceChildren();
    deliver(fleet());
    await pending;
    expect(copyList.querySelector('[data-first-card]')).toBeNull();
    expect(page.__kiraaFirstCards).toBeUndefined();
  });
});
