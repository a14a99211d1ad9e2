/**
 * Build step (scripts/first-screen.ts): on a first visit to /home or /cars, index.html draws the
 * first car cards itself, from the catalogue's first page that its prefetch is downloading
 * (src/sync/catalogue-prefetch.ts), while the app's code is still on its way: on an airport's
 * network the cars show seconds earlier (docs/performance.md, "First cards in the HTML").
 *
 * The cards are the app's own: CarCard rendered at build time in each language with a `__name__`
 * token for each value (src/app/prerender.tsx, prerenderCards), four variants (rated or new, with
 * a photo or without). The script picks the cars the app's list shows first (active ones in the
 * list's default order, src/features/catalogue/filters.ts; as many as FIRST_CARD_LISTS says),
 * copies a variant per car and fills its tokens: text and attributes only, never markup. It
 * draws only into index.html's copy of the screen while that copy is on the page, and leaves the
 * cards for the app (`__kiraaFirstCards`), whose placeholder keeps them until its own cards render
 * (src/features/catalogue/cards-placeholder.tsx). No query string: filters are the app's.
 *
 * On a repeat visit the rows are the first cards the app saved (first-cards-snapshot.ts): already
 * in the list's order, with their price and rating written in each language, so the drawing
 * creates no collator and no number format (each ≈ 50–120 ms at 4× CPU).
 */
import { DZD_FORMAT } from '../src/domain/money.ts';
import { FIRST_CARD_LISTS, type CardTemplates } from '../src/features/catalogue/first-cards.ts';
import { FIRST_SCREEN_PAGES, pagesRoute } from '../src/infra/shell-document.ts';
import { FIRST_CARS_GLOBAL, scriptJson } from '../src/sync/catalogue-prefetch.ts';

/**
 * The first-screen pages whose largest paint is their list's first photo (an eager list: /cars;
 * the home page's best-rated cars are below its hero, lazy): the app's code waits for that photo
 * (first-screen.ts, `starterScript`; route-preload.ts).
 */
export const PICTURE_FIRST_SCREENS = FIRST_SCREEN_PAGES.filter(
  (page) => page.cards && (FIRST_CARD_LISTS[page.name]?.eager ?? 0) > 0,
);

/** The URLs of PICTURE_FIRST_SCREENS. */
export function pictureFirstRoute(): RegExp {
  return pagesRoute(PICTURE_FIRST_SCREENS);
}

/** The card templates of one language, as index.html holds them. */
export function cardTemplateHtml(locale: string, templates: CardTemplates): string {
  return `<template id="kiraa-cards-${locale}">${Object.values(templates.variants).join('')}</template>`;
}

/** The drawing function the chooser calls once it has put a copy in #root (first-screen.ts). */
export const DRAW_FIRST_CARDS_GLOBAL = '__kiraaDrawFirstCards';

/**
 * The drawing script (ES5; it must never throw). It comes before the first screen's copies: it
 * draws when both the cars (`__kiraaFirstCars`) and the copy (`__kiraaFirstScreenId`, set by the
 * chooser, which then calls `__kiraaDrawFirstCards`) are there, whichever comes last. On a repeat
 * visit the device's cars are usually read before the copy is parsed: the cards are then drawn in
 * the same task as the copy, which is laid out and painted once, cards included.
 */
export function firstCardsScript(templates: Record<string, CardTemplates>): string {
  const words = Object.fromEntries(
    Object.entries(templates).map(([locale, t]) => [
      locale,
      { words: t.words, priceLocale: t.priceLocale, ratingLocale: t.ratingLocale },
    ]),
  );
  return [
    '(function () {',
    '  try {',
    `    var pending = window[${scriptJson(FIRST_CARS_GLOBAL)}];`,
    '    if (!pending || location.search) return;',
    '    var cars = null;',
    '    var done = false;',
    `    window[${scriptJson(DRAW_FIRST_CARDS_GLOBAL)}] = draw;`,
    '    pending.then(function (rows) {',
    '      cars = rows;',
    '      draw();',
    '    });',
    '  } catch (error) {}',
    '  function draw() {',
    '    try {',
    '      var id = window.__kiraaFirstScreenId;',
    '      if (done || !id || !cars) return;',
    '      done = true;',
    '      // Once: the copy and the cars are both here.',
    "      var cut = id.lastIndexOf('-');",
    `      var screen = ${scriptJson(FIRST_CARD_LISTS)}[id.slice(0, cut)];`,
    '      var locale = id.slice(cut + 1);',
    `      var language = ${scriptJson(words)}[locale];`,
    "      var template = document.getElementById('kiraa-cards-' + locale);",
    '      // In the copy only: once the app has taken over, it draws the cards itself.',
    '      var list =',
    '        screen &&',
    '        document.querySelector(',
    "          '#root [data-first-screen] [data-first-cards=\"' + screen.list + '\"]'",
    '        );',
    '      if (!list || !language || !template || !cars.length) return;',
    "      // A device's saved first cards come in the list's order, their texts formatted.",
    '      var ready = !!cars[0].texts;',
    '      var rating = function (car) {',
    '        return car.rating_avg == null ? 0 : Number(car.rating_avg);',
    '      };',
    '      var byName = null;',
    '      var shown = (',
    '        ready',
    '          ? cars',
    '          : cars',
    '              .filter(function (car) {',
    '                return car.active;',
    '              })',
    '              .sort(function (a, b) {',
    '                return (',
    '                  rating(b) - rating(a) ||',
    '                  (b.rating_count || 0) - (a.rating_count || 0) ||',
    "                  (byName = byName || new Intl.Collator('fr')).compare(a.name, b.name) ||",
    '                  (a.id < b.id ? -1 : 1)',
    '                );',
    '              })',
    '      ).slice(0, screen.limit);',
    '      if (!shown.length) return;',
    '      var prices = null;',
    '      var numbers = null;',
    '      var text = function (car, key, value) {',
    '        var texts = car.texts && car.texts[locale];',
    '        if (texts) return String(texts[key]);',
    "        if (key === 'price') {",
    `          prices = prices || new Intl.NumberFormat(language.priceLocale, ${scriptJson(DZD_FORMAT)});`,
    '          return prices.format(value);',
    '        }',
    '        numbers = numbers || new Intl.NumberFormat(language.ratingLocale, { maximumFractionDigits: 1 });',
    '        return numbers.format(value);',
    '      };',
    '      var word = function (table, code) {',
    '        return Object.prototype.hasOwnProperty.call(table, code) ? table[code] : String(code);',
    '      };',
    '      var cards = shown.map(function (car, index) {',
    '        var count = car.rating_count || 0;',
    '        var rated = count > 0 && car.rating_avg != null;',
    '        var image = car.images && car.images[0];',
    "        var variant = (rated ? 'r' : 'n') + (image ? 'p' : 'x');",
    '        var card = template.content',
    "          .querySelector('[data-card-variant=\"' + variant + '\"]')",
    '          .cloneNode(true);',
    '        var value = Math.round(Number(car.rating_avg) * 10) / 10;',
    '        var values = {',
    '          id: String(car.id),',
    '          slug: String(car.slug),',
    '          name: String(car.name),',
    '          year: String(car.year),',
    '          passengers: String(car.passengers),',
    '          body: word(language.words.body, car.body),',
    '          fuel: word(language.words.fuel, car.fuel),',
    '          transmission: word(language.words.transmission, car.transmission),',
    "          price: text(car, 'price', car.daily_rate_dzd),",
    "          rating: text(car, 'rating', value),",
    '          percent: String((Math.round(Math.min(5, Math.max(0, value)) * 2) / 2 / 5) * 100),',
    '          count: String(count),',
    "          image: image ? String(image) : '',",
    '        };',
    '        var fill = function (text) {',
    '          return text.replace(/__([a-z]+)__/g, function (whole, key) {',
    '            return Object.prototype.hasOwnProperty.call(values, key) ? values[key] : whole;',
    '          });',
    '        };',
    '        var walker = document.createTreeWalker(card, 5);',
    '        for (var node = card; node; node = walker.nextNode()) {',
    '          if (node.nodeType === 3) {',
    "            if (node.nodeValue.indexOf('__') >= 0) node.nodeValue = fill(node.nodeValue);",
    '            continue;',
    '          }',
    '          for (var i = 0; i < node.attributes.length; i++) {',
    '            var attribute = node.attributes[i];',
    "            if (attribute.value.indexOf('__') >= 0) attribute.value = fill(attribute.value);",
    '          }',
    '        }',
    "        var picture = card.querySelector('img');",
    '        if (picture) {',
    "          picture.setAttribute('loading', index < screen.eager ? 'eager' : 'lazy');",
    "          // An eager list's first picture is the page's largest paint (CarPicture's priority).",
    "          if (index === 0 && screen.eager) picture.setAttribute('fetchpriority', 'high');",
    "          if (/^https?:/.test(values.image)) picture.setAttribute('crossorigin', 'anonymous');",
    '        }',
    "        card.removeAttribute('data-card-variant');",
    "        card.setAttribute('data-first-card', '');",
    "        // Tests and tools address the app's cards, not these.",
    "        var marked = card.querySelectorAll('[data-testid]');",
    "        for (var j = 0; j < marked.length; j++) marked[j].removeAttribute('data-testid');",
    '        return card;',
    '      });',
    '      while (list.firstChild) list.removeChild(list.firstChild);',
    '      cards.forEach(function (card) {',
    '        list.appendChild(card);',
    '      });',
    "      // An eager list's first photo: the page's largest paint, which the app's starter awaits.",
    "      var picture = screen.eager > 0 ? cards[0].querySelector('img') : null;",
    '      window.__kiraaFirstCards = { list: screen.list, cards: cards, picture: picture };',
    '    } catch (error) {',
    '      // The grey cards stay; the app draws the cars when its code arrives.',
    '    }',
    '  }',
    '})();',
  ].join('\n');
}
