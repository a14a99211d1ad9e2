import { useCallback, useEffect, useRef, useState } from 'react';

import type { BookingStatus } from '@/domain/rows';

import {
  fetchOptionNames,
  fetchStaffBookings,
  fetchStatusCounts,
  STAFF_PAGE_SIZE,
  type OptionNames,
  type StaffBooking,
} from '@/features/staff/staff-api';
import { type StaffQuery } from '@/features/staff/staff-search';

export type LoadError = { code: string; offline: boolean };

export type BoardState = {
  rows: StaffBooking[];
  total: number;
  counts: Record<BookingStatus, number> | null;
  names: OptionNames | null;
  loading: boolean;
  loadingMore: boolean;
  error: LoadError | null;
};

const initial: BoardState = {
  rows: [],
  total: 0,
  counts: null,
  names: null,
  loading: true,
  loadingMore: false,
  error: null,
};

/**
 * The board's data for the filters in the address: a page of bookings, the count per status and
 * the option names, straight from the server (online-only: nothing is cached). An answer that
 * arrives after the filters changed again is dropped.
 */
export function useStaffBoard(query: StaffQuery, online: boolean) {
  const [state, setState] = useState<BoardState>(initial);
  const generation = useRef(0);
  const { status, from, to, search } = query;

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true, error: null }));
    const filters = { status, from, to, search };
    const [page, counts, names] = await Promise.all([
      fetchStaffBookings(filters),
      fetchStatusCounts({ from, to, search }),
      fetchOptionNames(),
    ]);
    if (mine !== generation.current) return;
    if (!page.ok) {
      setState((s) => ({
        ...s,
        loading: false,
        error: { code: page.code, offline: page.offline },
      }));
      return;
    }
    setState((s) => ({
      ...s,
      rows: page.data.rows,
      total: page.data.total,
      counts: counts.ok ? counts.data : s.counts,
      names: names.ok ? names.data : s.names,
      loading: false,
      error: null,
    }));
  }, [status, from, to, search]);

  const loadMore = useCallback(async () => {
    const mine = generation.current;
    setState((s) => ({ ...s, loadingMore: true }));
    const offset = state.rows.length;
    const page = await fetchStaffBookings({ status, from, to, search }, offset, STAFF_PAGE_SIZE);
    if (mine !== generation.current) return;
    setState((s) =>
      page.ok
        ? {
            ...s,
            // A booking that moved up while paging is not listed twice.
            rows: [...s.rows, ...page.data.rows.filter((r) => !s.rows.some((x) => x.id === r.id))],
            total: page.data.total,
            loadingMore: false,
          }
        : { ...s, loadingMore: false, error: { code: page.code, offline: page.offline } },
    );
  }, [status, from, to, search, state.rows.length]);

  useEffect(() => {
    if (!online) return;
    // Loads on mount, on every change of the filters and when the device is back online.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching is this effect's job
    void reload();
  }, [online, reload]);

  return { ...state, reload, loadMore };
}
