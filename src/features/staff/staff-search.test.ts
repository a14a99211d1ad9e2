import { describe, expect, it } from 'vitest';

import {
  periodBounds,
  phoneDigits,
  referencePattern,
  searchConditions,
  staffOrder,
} from '@/features/staff/staff-search';

describe('staff search', () => {
  it('finds a reference however it is typed', () => {
    expect(referencePattern('KR-7K3M-9QXD')).toBe('KR-7K3M-9QXD');
    expect(referencePattern('kr7k3m9qxd')).toBe('KR-7K3M-9QXD');
    expect(referencePattern('7K3M 9QXD')).toBe('KR-7K3M-9QXD');
    // Read the Crockford way: O is 0, I and L are 1.
    expect(referencePattern('KR-7K3M-OQXL')).toBe('KR-7K3M-0QX1');
    expect(referencePattern('7k3m')).toBe('7K3M');
    expect(referencePattern('7k3m-9q')).toBe('7K3M-9Q');
  });

  it('reads phone numbers in the forms people type them', () => {
    expect(phoneDigits('0555 12 34 56')).toBe('555123456');
    expect(phoneDigits('+213 555-12-34-56')).toBe('213555123456');
    expect(phoneDigits('00213 (555) 123456')).toBe('213555123456');
    expect(phoneDigits('Lina')).toBeNull();
    expect(phoneDigits('05')).toBeNull();
  });

  it('searches references, guest names, emails and phones, and the matching customers', () => {
    expect(searchConditions('Lina', ['u1', 'u2'])).toEqual([
      'reference.ilike."*LINA*"',
      'guest_name.ilike."*Lina*"',
      'guest_email.ilike."*Lina*"',
      'user_id.in.(u1,u2)',
    ]);
    expect(searchConditions('0555 12 34 56', [])).toContain('guest_phone.ilike."*555123456*"');
    expect(searchConditions('   ', ['u1'])).toEqual([]);
  });

  it('cannot be turned into another filter: the syntax characters are dropped', () => {
    const conditions = searchConditions('a"),status.eq.(x*%', []);
    for (const c of conditions) {
      expect(c).toMatch(/^[a-z_]+\.ilike\."\*[^"(),*%]*\*"$/);
    }
  });
});

describe('date filter', () => {
  it('keeps rentals that overlap the chosen Algiers days', () => {
    expect(periodBounds('2027-03-10', '2027-03-12')).toEqual({
      endsAfter: '2027-03-09T23:00:00.000Z',
      startsBefore: '2027-03-12T23:00:00.000Z',
    });
    expect(periodBounds(null, null)).toEqual({ endsAfter: null, startsBefore: null });
  });
});

describe('order', () => {
  it('puts what to handle next first and the finished bookings newest first', () => {
    expect(staffOrder('pending')).toEqual({ column: 'start_at', ascending: true });
    expect(staffOrder('in_progress')).toEqual({ column: 'end_at', ascending: true });
    expect(staffOrder('completed')).toEqual({ column: 'updated_at', ascending: false });
    expect(staffOrder('all')).toEqual({ column: 'created_at', ascending: false });
  });
});
