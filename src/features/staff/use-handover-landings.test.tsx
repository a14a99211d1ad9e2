import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { useQueuedHandovers } from '@/features/staff/handover-api';
import { useHandoverLandings } from '@/features/staff/use-handover-landings';
import { flushOutbox } from '@/sync/outbox/flush';
import { queueHandover } from '@/sync/outbox/handover';
import { ID1, outboxTestbed } from '@/sync/outbox/testing/fake-server';
import { pickupDraft, STAFF, twoPhotos } from '@/sync/outbox/testing/handover-fixtures';

const t = outboxTestbed();
afterEach(cleanup);

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
    await queueHandover(pickupDraft(), twoPhotos(), STAFF);
    await waitFor(() => expect(view.result.current).toBe(1));
    expect(onLanded).not.toHaveBeenCalled();

    await land();
    await waitFor(() => expect(view.result.current).toBe(0));
    expect(onLanded).toHaveBeenCalledTimes(1);
    view.rerender({ online: true });
    expect(onLanded).toHaveBeenCalledTimes(1);
  });

  it('keeps a landing heard while the page thinks it is offline until it is online', async () => {
    await queueHandover(pickupDraft(), twoPhotos(), STAFF);
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
