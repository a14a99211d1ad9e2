import { describe, expect, it } from 'vitest';

import { findLocalGuestBooking, matchesGuestLookup } from '@/features/booking/guest-lookup';

const booking = {
  reference: 'KR-7K3M-9QXD',
  user_id: null,
  guest_email: 'Amina@Example.com',
  guest_phone: '+213555123456',
};

describe('the offline guest lookup (the rule of find_guest_booking)', () => {
  it('matches the reference with the e-mail in any case, or the phone however typed', () => {
    expect(matchesGuestLookup(booking, 'KR-7K3M-9QXD', 'amina@example.com')).toBe(true);
    expect(matchesGuestLookup(booking, 'kr 7k3m 9qxd', ' AMINA@EXAMPLE.COM ')).toBe(true);
    expect(matchesGuestLookup(booking, 'KR-7K3M-9QXD', '+213 555 12 34 56')).toBe(true);
    expect(matchesGuestLookup(booking, 'KR-7K3M-9QXD', '00213555123456')).toBe(true);
    expect(matchesGuestLookup(booking, 'KR-7K3M-9QXD', '0555 12 34 56')).toBe(true);
  });

  it('refuses a wrong reference, a wrong contact, and a customer’s booking', () => {
    expect(matchesGuestLookup(booking, 'KR-7K3M-9QXE', 'amina@example.com')).toBe(false);
    expect(matchesGuestLookup(booking, 'KR-7K3M-9QXD', 'other@example.com')).toBe(false);
    expect(matchesGuestLookup(booking, 'KR-7K3M-9QXD', '+213555123457')).toBe(false);
    expect(matchesGuestLookup(booking, 'KR-7K3M-9QXD', '')).toBe(false);
    expect(matchesGuestLookup(booking, 'not a reference', 'amina@example.com')).toBe(false);
    expect(matchesGuestLookup({ ...booking, user_id: 'u1' }, 'KR-7K3M-9QXD', '+213555123456')).toBe(
      false,
    );
  });

  it('matches a phone written as people write it', () => {
    for (const typed of ['0555.12.34.56', '00213 555 12 34 56', '+213 0555 12 34 56']) {
      expect(matchesGuestLookup(booking, 'KR-7K3M-9QXD', typed), typed).toBe(true);
    }
    expect(matchesGuestLookup(booking, 'KR-7K3M-9QXD', '0555 12 34 57')).toBe(false);
  });

  it('finds the stored booking the lookup names', () => {
    const other = { ...booking, reference: 'KR-0000-0001' };
    expect(findLocalGuestBooking([other, booking], 'KR-7K3M-9QXD', '+213555123456')).toBe(booking);
    expect(findLocalGuestBooking([other], 'KR-7K3M-9QXD', '+213555123456')).toBeNull();
  });
});
