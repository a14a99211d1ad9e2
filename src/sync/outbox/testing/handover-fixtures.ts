/** A pickup record and its photos, as staff queue them (outbox and staff page tests). */
import type { HandoverDraft } from '@/sync/outbox/handover';
import { ID1 } from '@/sync/outbox/testing/fake-server';

export const STAFF = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbb1';
export const RECORD = 'cccccccc-cccc-4ccc-8ccc-ccccccccccc1';

export function pickupDraft(id = RECORD): HandoverDraft {
  return {
    id,
    booking_id: ID1,
    kind: 'pickup',
    odometer_km: 42_000,
    fuel_eighths: 8,
    id_document_type: 'national_id',
    id_document_number: 'AB123456',
    licence_seen: true,
    deposit_dzd: 30_000,
    damage: [{ x: 20, y: 30, zone: 'front_left', note: 'Rayure' }],
    notes: null,
    recorded_at: '2030-01-01T09:00:00+01:00',
  };
}

/** A JPEG's first bytes, and a label that makes each Blob its own. */
export const jpeg = (label: string) =>
  new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), label], { type: 'image/jpeg' });

export const twoPhotos = () => [
  { angle: 'front' as const, blob: jpeg('front'), type: 'image/jpeg' },
  { angle: 'rear_left' as const, blob: jpeg('rear'), type: 'image/png' },
];
