import { describe, expect, it } from 'vitest';

import { DAMAGE_MAX, handoverAngles, handoverRequestSchema, ODOMETER_MAX } from '@/domain/handover';
import { LIMITS } from '@/domain/limits';

const pickup = {
  id: '6f1c2a4e-0000-4000-8000-000000000001',
  booking_id: '6f1c2a4e-0000-4000-8000-000000000002',
  kind: 'pickup',
  odometer_km: 42_000,
  fuel_eighths: 8,
  photos: [],
  damage: [],
  notes: null,
  recorded_at: '2026-12-01T10:00:00+01:00',
  id_document_type: 'passport',
  id_document_number: '  AB 123456 ',
  licence_seen: true,
  deposit_dzd: 40_000,
};
const returned = {
  ...pickup,
  kind: 'return',
  deposit_status: 'kept',
  deposit_kept_dzd: 5_000,
  deposit_reason: 'Rayure sur la portière',
  id_document_type: undefined,
  id_document_number: undefined,
  licence_seen: undefined,
  deposit_dzd: undefined,
};

/** The paths of what the schema refuses in `value`, with their messages. */
function refusals(value: unknown) {
  const result = handoverRequestSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
}

describe('handoverRequestSchema (what staff_record_handover checks again)', () => {
  it('accepts a pickup and a return, the document number trimmed', () => {
    const parsed = handoverRequestSchema.parse(pickup);
    expect(parsed.kind === 'pickup' && parsed.id_document_number).toBe('AB 123456');
    expect(refusals(returned)).toEqual([]);
  });

  it('refuses readings that are not whole numbers within range', () => {
    for (const odometer_km of [-1, 1.5, ODOMETER_MAX + 1]) {
      expect(refusals({ ...pickup, odometer_km }).map(([path]) => path)).toEqual(['odometer_km']);
    }
    expect(refusals({ ...pickup, odometer_km: ODOMETER_MAX })).toEqual([]);
    expect(refusals({ ...pickup, fuel_eighths: 9 }).map(([path]) => path)).toEqual([
      'fuel_eighths',
    ]);
    expect(refusals({ ...pickup, deposit_dzd: -5 }).map(([path]) => path)).toEqual(['deposit_dzd']);
  });

  it('refuses hidden characters and notes over the text limit', () => {
    expect(refusals({ ...pickup, notes: 'rayure\u200b' })).toEqual([
      ['notes', 'hidden_characters'],
    ]);
    expect(refusals({ ...pickup, notes: 'a'.repeat(LIMITS.text + 1) }).map(([p]) => p)).toEqual([
      'notes',
    ]);
    expect(refusals({ ...pickup, notes: 'a'.repeat(LIMITS.text) })).toEqual([]);
  });

  it('refuses more photos than angles and more damage marks than allowed', () => {
    const photos = [...handoverAngles, 'front'].map((angle) => ({ angle, path: 'x.jpg' }));
    expect(refusals({ ...pickup, photos }).map(([p]) => p)).toEqual(['photos']);
    const mark = { x: 10, y: 20, zone: null, note: '' };
    const damage = Array.from({ length: DAMAGE_MAX + 1 }, () => mark);
    expect(refusals({ ...pickup, damage }).map(([p]) => p)).toEqual(['damage']);
    expect(refusals({ ...pickup, damage: [{ ...mark, x: 101 }] }).map(([p]) => p)).toEqual([
      'damage.0.x',
    ]);
  });

  it('asks for an amount and a reason when the deposit is kept', () => {
    expect(refusals({ ...returned, deposit_kept_dzd: null, deposit_reason: ' ' })).toEqual([
      ['deposit_kept_dzd', 'deposit_invalid'],
      ['deposit_reason', 'deposit_reason_required'],
    ]);
    expect(
      refusals({
        ...returned,
        deposit_status: 'returned',
        deposit_kept_dzd: null,
        deposit_reason: null,
      }),
    ).toEqual([]);
  });

  it('refuses a pickup without the licence seen or with a malformed document number', () => {
    expect(refusals({ ...pickup, licence_seen: false }).map(([p]) => p)).toEqual(['licence_seen']);
    expect(refusals({ ...pickup, id_document_number: 'A#1' }).map(([p]) => p)).toEqual([
      'id_document_number',
    ]);
  });
});
