import { describe, expect, it } from 'vitest';

import { SWIPE_MIN_PX, swipeStep } from '@/ui/swipe';

describe('swipeStep', () => {
  it('brings the next picture with a leftward swipe in LTR, a rightward one in RTL', () => {
    expect(swipeStep(-80, 5, false)).toBe(1);
    expect(swipeStep(80, 5, false)).toBe(-1);
    expect(swipeStep(80, 5, true)).toBe(1);
    expect(swipeStep(-80, 5, true)).toBe(-1);
  });

  it('ignores a tap, a short move and a mostly vertical one (the page scrolls)', () => {
    expect(swipeStep(0, 0, false)).toBe(0);
    expect(swipeStep(SWIPE_MIN_PX - 1, 0, false)).toBe(0);
    expect(swipeStep(SWIPE_MIN_PX, 0, false)).toBe(-1);
    expect(swipeStep(-60, 90, false)).toBe(0);
    expect(swipeStep(60, -60, true)).toBe(0);
  });
});
