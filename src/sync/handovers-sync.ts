/**
 * Reading pickup and return records (docs/handovers.md) with short-lived links to their photos
 * (private bucket `handovers`). Staff read them through `staff_booking_handovers` (full document
 * number); a customer reads their own booking's through the table, whose columns exclude it. The
 * customer's last answer is kept in Dexie (`meta`), so the booking page shows it offline.
 */
import { CUSTOMER_HANDOVER_COLUMNS, HANDOVER_BUCKET, type HandoverRecord } from '@/domain/handover';
import { db } from '@/infra/db';
import { supabase } from '@/infra/supabase';

export const PHOTO_LINK_SECONDS = 60 * 60;

export type HandoverWithLinks = HandoverRecord & {
  /** Signed URL of each photo by its path (absent when it could not be signed). */
  links: Record<string, string>;
};

export type HandoversResult =
  { ok: true; data: HandoverWithLinks[] } | { ok: false; code: string; offline: boolean };

async function withLinks(records: HandoverRecord[]): Promise<HandoverWithLinks[]> {
  const paths = records.flatMap((r) => r.photos.map((p) => p.path));
  const links: Record<string, string> = {};
  if (paths.length > 0) {
    const { data } = await supabase.storage
      .from(HANDOVER_BUCKET)
      .createSignedUrls(paths, PHOTO_LINK_SECONDS);
    for (const item of data ?? []) {
      if (item.path && item.signedUrl) links[item.path] = item.signedUrl;
    }
  }
  return records.map((r) => ({ ...r, links }));
}

function failure(error: { code?: string; message?: string; status?: number } | null) {
  const offline = !error?.status;
  return {
    ok: false as const,
    code: offline ? 'network' : (error?.message ?? 'unknown'),
    offline,
  };
}

/** Staff: a booking's records, pickup first, with the full document number. */
export async function fetchStaffHandovers(bookingId: string): Promise<HandoversResult> {
  try {
    const { data, error, status } = await supabase.rpc('staff_booking_handovers', {
      booking_id: bookingId,
    });
    if (error) return failure({ ...error, status });
    return { ok: true, data: await withLinks((data ?? []) as unknown as HandoverRecord[]) };
  } catch {
    return failure(null);
  }
}

const cacheKey = (bookingId: string) => `handovers.${bookingId}`;

/** A customer: their booking's records (document number masked); kept for offline reading. */
export async function fetchMyHandovers(bookingId: string): Promise<HandoversResult> {
  try {
    const { data, error, status } = await supabase
      .from('booking_handovers')
      .select(CUSTOMER_HANDOVER_COLUMNS)
      .eq('booking_id', bookingId)
      .order('kind', { ascending: false });
    if (error) return failure({ ...error, status });
    const records = await withLinks((data ?? []) as unknown as HandoverRecord[]);
    await db.meta.put({ key: cacheKey(bookingId), value: records });
    return { ok: true, data: records };
  } catch {
    return failure(null);
  }
}

/** The records last read for a booking on this device (links may have expired). */
export async function readCachedHandovers(bookingId: string): Promise<HandoverWithLinks[] | null> {
  const row = await db.meta.get(cacheKey(bookingId));
  return (row?.value as HandoverWithLinks[] | undefined) ?? null;
}
