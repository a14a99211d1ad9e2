import { act, cleanup, render } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';

import { releaseFirstScreenCards } from '@/infra/first-screen';
import { FIRST_CARDS_SNAPSHOT_KEY } from '@/sync/catalogue-prefetch';

import { CardsPlaceholder, useFirstCardsDone } from '@/features/catalogue/cards-placeholder';
import { firstCardsSnapshot, useSaveFirstCards } from '@/features/catalogue/first-cards-snapshot';
import { syntheticCars } from '@/features/catalogue/testing/synthetic-cars';

const page = globalThis as unknown as { __kiraaFirstCards?: { list: string; cards: Element[] } };

/** Cards as index.html draws them into its copy of the first screen. */
function drawn(list: string, names: string[]): Element[] {
  const cards = names.map((name) => {
    const card = document.createElement('li');
    card.setAttribute('data-first-card', '');
    card.textContent = name;
    return card;
  });
  page.__kiraaFirstCards = { list, cards };
  return cards;
}

const placeholder = (list: 'cars' | 'featured' = 'cars') => (
  <CardsPlaceholder list={list} count={6} className="grid" />
);

afterEach(() => {
  cleanup();
  releaseFirstScreenCards();
  localStorage.clear();
});

describe('CardsPlaceholder', () => {
  it('shows grey cards, inert and hidden, when index.html drew none', () => {
    const { container } = render(placeholder());
    const list = container.querySelector('ul')!;
    expect(list.querySelectorAll('li.animate-pulse')).toHaveLength(6);
    expect(list.hasAttribute('inert')).toBe(true);
    expect(list.getAttribute('aria-hidden')).toBe('true');
    expect(list.dataset.firstCards).toBe('cars');
  });

  it('takes over the cards index.html drew for its list, the very same elements', () => {
    const cards = drawn('cars', ['Clio', 'Logan']);
    const { container } = render(placeholder());
    const list = container.querySelector('ul')!;
    expect([...list.children]).toEqual(cards);
    expect(list.querySelector('.animate-pulse')).toBeNull();
  });

  it("leaves another list's cards alone", () => {
    drawn('featured', ['Clio']);
    const { container } = render(placeholder('cars'));
    expect(container.querySelectorAll('li.animate-pulse')).toHaveLength(6);
  });

  it('takes cards drawn while the app was rendering, before the paint', () => {
    function Late() {
      // The cards come in between this render and its commit.
      useState(() => drawn('cars', ['Tucson']));
      return null;
    }
    const { container } = render(
      <>
        {placeholder()}
        <Late />
      </>,
    );
    expect(container.querySelector('ul')!.textContent).toBe('Tucson');
  });

  it('keeps the cards across a second placeholder (the home page loading its live part)', () => {
    const cards = drawn('featured', ['Clio', 'Hilux']);
    const first = render(placeholder('featured'));
    first.unmount();
    const { container } = render(placeholder('featured'));
    expect([...container.querySelector('ul')!.children]).toEqual(cards);
  });

  it('never shows them again once the page showed its own cards, and keeps the next visit’s', () => {
    drawn('cars', ['Clio']);
    const cars = syntheticCars(20);
    function Page() {
      const [shown, setShown] = useState(false);
      useFirstCardsDone(shown);
      useSaveFirstCards(shown, cars);
      return shown ? (
        <button type="button">own cards</button>
      ) : (
        <>
          {placeholder()}
          <button type="button" onClick={() => setShown(true)}>
            show
          </button>
        </>
      );
    }
    const { container, getByText } = render(<Page />);
    expect(container.querySelector('[data-first-card]')).not.toBeNull();
    // While the list loads, the last visit's first cards stay as they were.
    expect(localStorage.getItem(FIRST_CARDS_SNAPSHOT_KEY)).toBeNull();
    act(() => getByText('show').click());
    expect(JSON.parse(localStorage.getItem(FIRST_CARDS_SNAPSHOT_KEY)!)).toEqual(
      firstCardsSnapshot(cars),
    );
    cleanup();
    const again = render(placeholder());
    expect(again.container.querySelectorAll('li.animate-pulse')).toHaveLength(6);
    expect(again.container.querySelector('[data-first-card]')).toBeNull();
  });
});
