import { useEffect, useLayoutEffect, useRef, useState } from 'react';

import { firstScreenCards, releaseFirstScreenCards } from '@/infra/first-screen';

import type { FirstCardList } from '@/features/catalogue/first-cards';

/**
 * A car list's place while the device's catalogue is read: `count` grey cards or, on a first
 * visit where index.html already drew this list's cards from the prefetched catalogue
 * (scripts/first-cards.ts), those very cards, moved into it before the browser paints. So the
 * app's takeover never turns cards back into grey boxes; its own cards (the same cars, drawn by
 * the same component) replace them when they render. Inert and hidden from screen readers like
 * the grey boxes: nothing in it can be used yet.
 */
export function CardsPlaceholder({
  list,
  count,
  className,
}: {
  list: FirstCardList['list'];
  count: number;
  className: string;
}) {
  const ref = useRef<HTMLUListElement>(null);
  const [cards, setCards] = useState(() => firstScreenCards(list));
  useLayoutEffect(() => {
    if (cards) {
      ref.current?.append(...cards);
      return;
    }
    // Drawn while the app was rendering (after this render read them): shown before the paint,
    // which is what a layout effect's update is for (once per list at most).
    const drawn = firstScreenCards(list);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- see above
    if (drawn) setCards(drawn);
  }, [cards, list]);
  return (
    <ul ref={ref} aria-hidden="true" inert className={className} data-first-cards={list}>
      {!cards &&
        Array.from({ length: count }, (_, i) => (
          <li key={i} className="h-80 animate-pulse rounded-xl bg-muted" />
        ))}
    </ul>
  );
}

/** For the page whose list is on screen (`shown`): the first cards are done with. */
export function useFirstCardsDone(shown: boolean): void {
  useEffect(() => {
    if (shown) releaseFirstScreenCards();
  }, [shown]);
}
