import { useEffect, useRef } from 'react';

import { useQueuedHandovers } from '@/features/staff/handover-api';

/**
 * Calls `onLanded` when a record of this booking has left this phone's outbox (the server has it,
 * so the booking's history has a new line), once the page is online. The booking page watches its
 * queue from its first render, whichever of its states shows: after an offline reload, the outbox
 * may send the record before the page's own first load has even answered.
 */
export function useHandoverLandings(bookingId: string, online: boolean, onLanded: () => void) {
  const waiting = useQueuedHandovers(bookingId)?.length;
  const seen = useRef<number | undefined>(undefined);
  const due = useRef(false);
  useEffect(() => {
    if (waiting === undefined) return;
    if (seen.current !== undefined && waiting < seen.current) due.current = true;
    seen.current = waiting;
    if (due.current && online) {
      due.current = false;
      onLanded();
    }
  }, [waiting, online, onLanded]);
}
