import { beforeEach, describe, expect, it } from 'vitest';

import { dismissAllToasts, dismissToast, getToasts, showToast } from '@/infra/toast';

describe('toasts', () => {
  beforeEach(() => dismissAllToasts());

  it('default to 5 s at the bottom centre', () => {
    showToast('Hello');
    expect(getToasts()).toMatchObject([
      { message: 'Hello', kind: 'info', duration: 5000, placement: 'bottom-center' },
    ]);
  });

  it('a toast with the same id replaces the earlier one', () => {
    showToast('One', { id: 'x' });
    showToast('Two', { id: 'x', placement: 'top-center', duration: 3000 });
    showToast('Other');
    expect(getToasts().map((t) => t.message)).toEqual(['Two', 'Other']);
    expect(getToasts()[0]).toMatchObject({ placement: 'top-center', duration: 3000 });
  });

  it('can be dismissed by id', () => {
    const id = showToast('Bye');
    showToast('Stay');
    dismissToast(id);
    expect(getToasts().map((t) => t.message)).toEqual(['Stay']);
  });
});
