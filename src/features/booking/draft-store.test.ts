import { afterEach, describe, expect, it } from 'vitest';

import { db } from '@/infra/db';
import { localBooking } from '@/sync/testing/bookings';

import { emptyDraft } from '@/features/booking/draft';
import { clearDraft, loadSavedDraft, saveDraft } from '@/features/booking/draft-store';

afterEach(async () => {
  await Promise.all([db.meta.clear(), db.files.clear(), db.bookings.clear()]);
});

const draftOf = (id: string) =>
  emptyDraft(id, 'KR-7K3M-9QXD', { car_id: 'c1', start_date: '2027-03-12' });

describe('draft store', () => {
  it('offers a saved draft back, and forgets it when cleared', async () => {
    const draft = draftOf(crypto.randomUUID());
    await saveDraft(draft, 'services');
    expect(await loadSavedDraft()).toEqual({ draft, step: 'services' });
    await clearDraft(draft);
    expect(await loadSavedDraft()).toBeNull();
  });

  it('does not offer a draft whose booking is already queued (stopped between the two writes)', async () => {
    // submitDraft queues the booking in one transaction and forgets the draft in a second one:
    // a tab closed in between leaves both, and the draft must not be booked a second time.
    const draft = draftOf(crypto.randomUUID());
    await saveDraft(draft, 'review');
    await db.bookings.put(localBooking({ id: draft.id, status: 'queued', sync_state: 'queued' }));
    expect(await loadSavedDraft()).toBeNull();
  });
});
