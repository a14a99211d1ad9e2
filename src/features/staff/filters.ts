import { bookingStatuses } from '@/domain/lifecycle';
/** The board's filters, kept in the address (/staff?status=…&from=…&to=…&q=…). */
import { type StaffQuery, type StaffStatusFilter } from '@/features/staff/staff-search';

/** The statuses in the order the board lists them: what needs a decision first. */
export const statusFilters: readonly StaffStatusFilter[] = [...bookingStatuses, 'all'];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function validDate(value: string | null): string | null {
  if (!value || !DATE.test(value)) return null;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y!, m! - 1, d!));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m! - 1 && date.getUTCDate() === d
    ? value
    : null;
}

/** Reads the filters; anything unknown falls back to the default (pending, no dates, no search). */
export function parseFilters(params: URLSearchParams): StaffQuery {
  const status = params.get('status');
  let from = validDate(params.get('from'));
  let to = validDate(params.get('to'));
  if (from && to && from > to) [from, to] = [to, from];
  return {
    status: statusFilters.includes(status as StaffStatusFilter)
      ? (status as StaffStatusFilter)
      : 'pending',
    from,
    to,
    search: (params.get('q') ?? '').slice(0, 80),
  };
}

/** Writes the filters back, leaving defaults out so the address stays short. */
export function filtersToParams(query: StaffQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.status !== 'pending') params.set('status', query.status);
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  if (query.search.trim()) params.set('q', query.search.trim());
  return params;
}
