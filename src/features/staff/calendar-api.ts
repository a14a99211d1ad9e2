/**
 * The fleet calendar's and blocks' calls (docs/fleet.md). Online-only like every staff screen:
 * straight to PostgREST with the admin's token; the server checks the role and every rule again
 * (`staff_block_car`, `staff_unblock_car`, `staff_block_collisions`).
 */
import { supabase } from '@/infra/supabase';

import type { CalendarBlock, CalendarBooking } from '@/features/staff/calendar';
import type { ExportBooking } from '@/features/staff/export';
import { staffCall, type StaffResult } from '@/features/staff/staff-call';

export type CalendarCar = { id: string; name: string; year: number };

export type CalendarData = {
  cars: CalendarCar[];
  bookings: CalendarBooking[];
  blocks: CalendarBlock[];
};

export type BlockCollision = {
  kind: 'booking' | 'block';
  id: string;
  reference: string | null;
  status: string | null;
  from_at: string;
  to_at: string;
  holds: boolean;
  reason: string | null;
};

const SHOWN_STATUSES = ['pending', 'reserved', 'in_progress', 'completed'];

/** Active cars, and the bookings and blocks that overlap [from, to). */
export async function loadCalendar(from: string, to: string): Promise<StaffResult<CalendarData>> {
  const [cars, bookings, blocks] = await Promise.all([
    staffCall<CalendarCar[]>(() =>
      supabase.from('cars').select('id, name, year').eq('active', true).order('name').limit(500),
    ),
    staffCall<CalendarBooking[]>(() =>
      supabase
        .from('bookings')
        .select('id, reference, car_id, status, start_at, end_at')
        .in('status', SHOWN_STATUSES)
        .lt('start_at', to)
        .gt('end_at', from)
        .order('start_at')
        .limit(5000),
    ),
    staffCall<CalendarBlock[]>(() =>
      supabase
        .from('car_blocks')
        .select('id, car_id, start_at, end_at, reason')
        .lt('start_at', to)
        .gt('end_at', from)
        .order('start_at')
        .limit(5000),
    ),
  ]);
  if (!cars.ok) return cars;
  if (!bookings.ok) return bookings;
  if (!blocks.ok) return blocks;
  return { ok: true, data: { cars: cars.data, bookings: bookings.data, blocks: blocks.data } };
}

export function blockCollisions(
  carId: string,
  startAt: string,
  endAt: string,
): Promise<StaffResult<BlockCollision[]>> {
  return staffCall(() =>
    supabase.rpc('staff_block_collisions', { car_id: carId, start_at: startAt, end_at: endAt }),
  );
}

export function blockCar(
  carId: string,
  startAt: string,
  endAt: string,
  reason: string,
): Promise<StaffResult<CalendarBlock>> {
  return staffCall(() =>
    supabase.rpc('staff_block_car', { car_id: carId, start_at: startAt, end_at: endAt, reason }),
  );
}

export function unblockCar(blockId: string): Promise<StaffResult<CalendarBlock>> {
  return staffCall(() => supabase.rpc('staff_unblock_car', { block_id: blockId }));
}

const EXPORT_PAGE = 1000;

/**
 * Every booking picked up in [from, to) with what the CSV needs (export.ts), page by page (1000
 * rows each, PostgREST's usual cap), oldest first.
 */
export async function exportBookings(
  from: string,
  to: string,
): Promise<StaffResult<ExportBooking[]>> {
  const rows: ExportBooking[] = [];
  for (let offset = 0; ; offset += EXPORT_PAGE) {
    const page = await staffCall<ExportBooking[]>(() =>
      supabase
        .from('bookings')
        .select(
          'reference, start_at, end_at, status, total_dzd, price, guest_name, car:cars(name), customer:profiles(full_name)',
        )
        .gte('start_at', from)
        .lt('start_at', to)
        .order('start_at')
        .order('id')
        .range(offset, offset + EXPORT_PAGE - 1),
    );
    if (!page.ok) return page;
    rows.push(...page.data);
    if (page.data.length < EXPORT_PAGE) return { ok: true, data: rows };
  }
}
