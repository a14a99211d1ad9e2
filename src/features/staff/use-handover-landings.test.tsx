import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { useQueuedHandovers } from '@/features/staff/handover-api';
import { useHandoverLandings } from '@/features/staff/use-handover-landings';
import { flushOutbox } from '@/sync/outbox/flush';
import { queueHandover, type HandoverDraft } from '@/sync/outbox/handover';
import { ID1, outboxTestbed } from '@/sync/outbox/testing/fake-server';

const t = outboxTestbed();
afterEach(cleanup);

const STAFF = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbb1';

const draft: HandoverDraft = {
  id: 'cccccccc-cccc-4ccc-8ccc-ccccccccccc1',
  booking_id: ID1,
  kind: 'pickup',
  odometer_km: 42_000,
  fuel_eighths: 8,
  id_document_type: 'national_id',
  id_document_number: 'AB123456',
  licence_seen: true,
  deposit_dzd: 30_000,
  damage: [],
  notes: null,
  recorded_at: '2030-01-01T09:00:00+01:00',
};

const photo = () => ({
  angle: 'front' as const,
  blob: new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' }),
  type: 'image/jpeg',
});

/** The hook as the page uses it, with the queue's length beside it to wait on. */
function renderPage(online: boolean) {
  const onLanded = vi.fn();
  const view = renderHook(
    ({ online: now }: { online: boolean }) => {
      useHandoverLandings(ID1, now, onLanded);
      return useQueuedHandovers(ID1)?.length;
    },
    { initialProps: { online } },
  );
  return { onLanded, view };
}

async function land() {
  t.server.user = STAFF;
  const result = await flushOutbox({ transport: t.server, now: t.now });
  expect(result).toMatchObject({ remaining: 0 });
}

describe('the staff booking page hears its records land', () => {
  it('calls back once when a queued record leaves the outbox, not when one is queued', async () => {
    const { onLanded, view } = renderPage(true);
    await waitFor(() => expect(view.result.current).toBe(0));
    await queueHandover(draft, [photo()], STAFF);
    await waitFor(() => expect(view.result.current).toBe(1));
    expect(onLanded).not.toHaveBeenCalled();

    await land();
    await waitFor(() => expect(view.result.current).toBe(0));
    expect(onLanded).toHaveBeenCalledTimes(1);
    view.rerender({ online: true });
    expect(onLanded).toHaveBeenCalledTimes(1);
  });

  it('keeps a landing heard while the page thinks it is offline until it is online', async () => {
    await queueHandover(draft, [photo()], STAFF);
    const { onLanded, view } = renderPage(false);
    await waitFor(() => expect(view.result.current).toBe(1));

    await land();
    await waitFor(() => expect(view.result.current).toBe(0));
    expect(onLanded).not.toHaveBeenCalled();

    view.rerender({ online: true });
    expect(onLanded).toHaveBeenCalledTimes(1);
    view.rerender({ online: false });
    view.rerender({ online: true });
    expect(onLanded).toHaveBeenCalledTimes(1);
  });
});
