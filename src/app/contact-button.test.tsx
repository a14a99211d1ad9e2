import { afterEach, describe, expect, it } from 'vitest';

import { controlUnder } from '@/app/contact-button';

function box(el: HTMLElement, left: number, top: number, width: number, height: number) {
  el.getBoundingClientRect = () =>
    ({
      left,
      top,
      width,
      height,
      right: left + width,
      bottom: top + height,
      x: left,
      y: top,
    }) as DOMRect;
  return el;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('controlUnder', () => {
  function setup() {
    const own = document.createElement('div');
    const trigger = box(document.createElement('button'), 300, 500, 56, 56);
    own.append(trigger);
    document.body.append(own);
    return { own, trigger };
  }

  it('sees a control whose label is under the button, not one beside it', () => {
    const { own, trigger } = setup();
    const beside = box(document.createElement('button'), 100, 500, 150, 40);
    // A wide row whose far end only passes under the button stays usable: not covered.
    const row = box(document.createElement('summary'), 16, 505, 358, 48);
    document.body.append(beside, row);
    expect(controlUnder(trigger, own)).toBe(false);
    // A search button whose second half runs under the button.
    const under = box(document.createElement('input'), 200, 520, 140, 40);
    document.body.append(under);
    expect(controlUnder(trigger, own)).toBe(true);
  });

  it('ignores its own card, hidden controls and toasts', () => {
    const { own, trigger } = setup();
    own.append(box(document.createElement('a'), 300, 440, 200, 100));
    const hidden = box(document.createElement('button'), 300, 500, 56, 56);
    hidden.style.visibility = 'hidden';
    const toast = document.createElement('div');
    toast.dataset.testid = 'toast';
    toast.append(box(document.createElement('button'), 300, 500, 56, 56));
    const closed = document.createElement('div');
    closed.hidden = true;
    closed.append(box(document.createElement('button'), 300, 500, 56, 56));
    document.body.append(hidden, toast, closed);
    expect(controlUnder(trigger, own)).toBe(false);
  });
});
