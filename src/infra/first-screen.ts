/**
 * When the first screen is on the page with its content: background work (the outbox's engine,
 * the service worker) waits for it, so it never competes with what the traveller is waiting for.
 */
import { useEffect } from 'react';

let screensShown = 0;
/** Screens whose content is still on its way (useScreenContent). */
let contentHolds = 0;
const waiters: Array<() => void> = [];

function wake() {
  if (screensShown === 0 || contentHolds > 0) return;
  for (const waiter of waiters.splice(0)) waiter();
}

/** A route's screen was committed (src/app/screens.tsx). */
export function screenShown(): void {
  screensShown += 1;
  wake();
}

/**
 * For a screen whose content arrives after its first render (a first visit's catalogue): while
 * `ready` is false the screen is not "shown" for afterFirstScreen, so background work does not
 * compete with the download and the pictures that content is waiting for.
 */
export function useScreenContent(ready: boolean): void {
  useEffect(() => {
    if (ready) return;
    contentHolds += 1;
    return () => {
      contentHolds -= 1;
      wake();
    };
  }, [ready]);
}

/**
 * Resolves once the first screen is on the page with its content (useScreenContent) and the
 * browser has had a frame to paint it, or after `timeoutMs` (e.g. in a background tab):
 * background work (sync, service worker) starts after it, so it never competes with the first
 * screen.
 */
export function afterFirstScreen(timeoutMs = 4000): Promise<void> {
  return new Promise((resolve) => {
    const painted = () => requestAnimationFrame(() => resolve());
    waiters.push(painted);
    wake();
    setTimeout(resolve, timeoutMs);
  });
}

/** The global where index.html leaves the cards it drew (scripts/first-cards.ts). */
type DrawnCards = { list: string; cards: Element[] };
type WithDrawnCards = { __kiraaFirstCards?: DrawnCards };

/**
 * The car cards index.html drew into list `list` of its copy of the first screen, from the
 * prefetched catalogue, before the app's code arrived; null when it drew none there. The app's
 * placeholder for that list shows them until its own cards render (cards-placeholder.tsx).
 */
export function firstScreenCards(list: string): Element[] | null {
  const drawn = (globalThis as WithDrawnCards).__kiraaFirstCards;
  return drawn?.list === list && drawn.cards.length > 0 ? drawn.cards : null;
}

/** The app's own cards are on screen: the drawn ones are never shown again. */
export function releaseFirstScreenCards(): void {
  delete (globalThis as WithDrawnCards).__kiraaFirstCards;
}
