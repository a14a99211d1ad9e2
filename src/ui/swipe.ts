import { useRef, type PointerEvent } from 'react';

/** How far (px) a finger travels sideways before it counts as a swipe. */
export const SWIPE_MIN_PX = 40;

/**
 * What a sideways gesture means in a gallery: 1 = the next picture, -1 = the previous one, 0 =
 * none (too short, or more vertical than sideways: the page scrolls). The next picture comes from
 * the end of the line: from the right in French, from the left in Arabic, so the finger moves
 * towards the start (leftwards in LTR, rightwards in RTL) to bring it.
 */
export function swipeStep(dx: number, dy: number, rtl: boolean): -1 | 0 | 1 {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) <= Math.abs(dy)) return 0;
  const leftwards = dx < 0;
  return leftwards !== rtl ? 1 : -1;
}

/**
 * Pointer handlers for a swipeable area (touch, pen or a mouse drag). The area keeps vertical
 * panning for the page (`touch-action: pan-y`, the `touch-pan-y` class) and gives sideways moves
 * to these handlers; the direction follows the element's own (`direction: rtl` in Arabic).
 */
export function useSwipe(onStep: (step: 1 | -1) => void) {
  const start = useRef<{ x: number; y: number; id: number } | null>(null);
  return {
    onPointerDown(event: PointerEvent<HTMLElement>) {
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      start.current = { x: event.clientX, y: event.clientY, id: event.pointerId };
    },
    onPointerUp(event: PointerEvent<HTMLElement>) {
      const from = start.current;
      start.current = null;
      if (!from || from.id !== event.pointerId) return;
      const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
      const step = swipeStep(event.clientX - from.x, event.clientY - from.y, rtl);
      if (step !== 0) onStep(step);
    },
    onPointerCancel() {
      start.current = null;
    },
  };
}
