/**
 * Pickup and return records (docs/handovers.md): the payload of `staff_record_handover(p)`, in
 * one shape. The staff form builds it, the outbox validates and sends it (after the photos), and
 * the server checks every field again (supabase/migrations/20261126560000_handovers.sql).
 */
import * as z from 'zod/mini';

import { LIMITS } from '@/domain/limits';

export const HANDOVER_BUCKET = 'handovers';

/** The checklist angles, in the order the form lists them (each photo optional). */
export const handoverAngles = [
  'front',
  'back',
  'left',
  'right',
  'front_left',
  'front_right',
  'rear_left',
  'rear_right',
] as const;
export type HandoverAngle = (typeof handoverAngles)[number];

/** Zones of the car outline, for a damage mark added from the list (keyboard). */
export const handoverZones = [
  'front',
  'back',
  'left',
  'right',
  'roof',
  'front_left',
  'front_right',
  'rear_left',
  'rear_right',
  'interior',
] as const;
export type HandoverZone = (typeof handoverZones)[number];

/** Where a zone sits on the outline (x, y in % of the drawing, seen from above, front on top). */
export const zoneCentres: Record<HandoverZone, { x: number; y: number }> = {
  front: { x: 50, y: 8 },
  back: { x: 50, y: 92 },
  left: { x: 18, y: 50 },
  right: { x: 82, y: 50 },
  roof: { x: 50, y: 50 },
  front_left: { x: 22, y: 20 },
  front_right: { x: 78, y: 20 },
  rear_left: { x: 22, y: 80 },
  rear_right: { x: 78, y: 80 },
  interior: { x: 50, y: 36 },
};

export const idDocumentTypes = ['national_id', 'passport', 'driving_licence'] as const;
export type IdDocumentType = (typeof idDocumentTypes)[number];

export const ID_NUMBER_RE = /^[A-Za-z0-9][A-Za-z0-9 -]{2,28}[A-Za-z0-9]$/;

export const ODOMETER_MAX = LIMITS.odometerKm;
export const DEPOSIT_MAX = LIMITS.amountDzd;
export const DAMAGE_NOTE_MAX = LIMITS.damageNote;
export const DAMAGE_MAX = LIMITS.damageMarks;

// The SQL check's set (internal.has_hidden_characters): line breaks included, so the form cleans
// what is typed first (cleanTypedText).
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const HIDDEN = /[\u0001-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;
const clean = (max: number) =>
  z.string().check(
    z.maxLength(max),
    z.refine((v) => !HIDDEN.test(v), 'hidden_characters'),
  );
/** A whole number from `min` to `max`. */
const count = (min: number, max: number) => z.int().check(z.gte(min), z.lte(max));

export const damageMarkSchema = z.object({
  x: z.number().check(z.gte(0), z.lte(100)),
  y: z.number().check(z.gte(0), z.lte(100)),
  zone: z.nullable(z.enum(handoverZones)),
  note: clean(DAMAGE_NOTE_MAX),
});
export type DamageMark = z.infer<typeof damageMarkSchema>;

export const handoverPhotoSchema = z.object({
  angle: z.enum(handoverAngles),
  path: z.string().check(z.minLength(1)),
});
export type HandoverPhoto = z.infer<typeof handoverPhotoSchema>;

const common = {
  id: z.guid(),
  booking_id: z.guid(),
  odometer_km: count(0, ODOMETER_MAX),
  fuel_eighths: count(0, 8),
  photos: z.array(handoverPhotoSchema).check(z.maxLength(handoverAngles.length)),
  damage: z.array(damageMarkSchema).check(z.maxLength(DAMAGE_MAX)),
  notes: z.nullable(clean(LIMITS.text)),
  recorded_at: z.iso.datetime({ offset: true }),
};

export const pickupRequestSchema = z.object({
  ...common,
  kind: z.literal('pickup'),
  id_document_type: z.enum(idDocumentTypes),
  id_document_number: z.string().check(z.trim(), z.regex(ID_NUMBER_RE)),
  licence_seen: z.literal(true),
  deposit_dzd: count(0, DEPOSIT_MAX),
});

export const returnRequestSchema = z.object({
  ...common,
  kind: z.literal('return'),
  deposit_status: z.enum(['returned', 'kept']),
  deposit_kept_dzd: z.nullable(count(1, DEPOSIT_MAX)),
  deposit_reason: z.nullable(clean(LIMITS.text)),
});

export const handoverRequestSchema = z
  .discriminatedUnion('kind', [pickupRequestSchema, returnRequestSchema])
  .check(
    z.superRefine((p, ctx) => {
      if (p.kind === 'return' && p.deposit_status === 'kept') {
        if (p.deposit_kept_dzd === null) {
          ctx.addIssue({ code: 'custom', path: ['deposit_kept_dzd'], message: 'deposit_invalid' });
        }
        if (!p.deposit_reason?.trim()) {
          ctx.addIssue({
            code: 'custom',
            path: ['deposit_reason'],
            message: 'deposit_reason_required',
          });
        }
      }
    }),
  );
export type HandoverRequest = z.infer<typeof handoverRequestSchema>;
export type HandoverKind = HandoverRequest['kind'];

/** A photo's stable path: the same on every retry, so a replayed upload finds it there. */
export function handoverPhotoPath(
  bookingId: string,
  recordId: string,
  angle: HandoverAngle,
  type: string,
): string {
  const ext = type === 'image/png' ? 'png' : type === 'image/webp' ? 'webp' : 'jpg';
  return `${bookingId}/${recordId}-${angle}.${ext}`;
}

/** A record as the server stores it (what customers read lacks `id_document_number`). */
export type HandoverRecord = {
  id: string;
  booking_id: string;
  kind: HandoverKind;
  odometer_km: number;
  fuel_eighths: number;
  id_document_type: IdDocumentType | null;
  id_document_number?: string | null;
  id_document_masked: string | null;
  licence_seen: boolean | null;
  deposit_dzd: number | null;
  deposit_status: 'held' | 'returned' | 'kept';
  deposit_kept_dzd: number | null;
  deposit_reason: string | null;
  photos: HandoverPhoto[];
  damage: DamageMark[];
  notes: string | null;
  recorded_at: string;
  created_at: string;
};

/** The columns customers may read (everything but the full document number). */
export const CUSTOMER_HANDOVER_COLUMNS =
  'id, booking_id, kind, odometer_km, fuel_eighths, id_document_type, id_document_masked, licence_seen, deposit_dzd, deposit_status, deposit_kept_dzd, deposit_reason, photos, damage, notes, recorded_at, created_at';

/** A queued request as the record the server will store (to show it while it waits). */
export function recordOfRequest(p: HandoverRequest): HandoverRecord {
  const pickup = p.kind === 'pickup';
  return {
    id: p.id,
    booking_id: p.booking_id,
    kind: p.kind,
    odometer_km: p.odometer_km,
    fuel_eighths: p.fuel_eighths,
    id_document_type: pickup ? p.id_document_type : null,
    id_document_number: pickup ? p.id_document_number : null,
    id_document_masked: null,
    licence_seen: pickup ? true : null,
    deposit_dzd: pickup ? p.deposit_dzd : null,
    deposit_status: pickup ? 'held' : p.deposit_status,
    deposit_kept_dzd: pickup ? null : p.deposit_kept_dzd,
    deposit_reason: pickup ? null : p.deposit_reason,
    photos: p.photos,
    damage: p.damage,
    notes: p.notes,
    recorded_at: p.recorded_at,
    created_at: p.recorded_at,
  };
}
