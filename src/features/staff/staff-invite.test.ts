import { describe, expect, it } from 'vitest';

import {
  emptyInviteForm,
  inviteBody,
  inviteOutcome,
  inviteProblems,
} from '@/features/staff/staff-invite';

const valid = {
  email: ' Nadia.Staff@Kiraa.dz ',
  name: 'Nadia Cherif',
  phone: '0555 12 34 56',
  age: '29',
  address: '3 rue Ben Mhidi, Oran',
};

describe('staff invitation form', () => {
  it('asks for every field, a real address, an international phone and an adult age', () => {
    expect(inviteProblems(emptyInviteForm)).toEqual({
      email: 'required',
      name: 'required',
      phone: 'required',
      age: 'required',
      address: 'required',
    });
    expect(inviteProblems(valid)).toEqual({});
    expect(inviteProblems({ ...valid, email: 'nadia@' })).toEqual({ email: 'invalid' });
    expect(inviteProblems({ ...valid, phone: '12' })).toEqual({ phone: 'invalid' });
    expect(inviteProblems({ ...valid, age: '17' })).toEqual({ age: 'invalid' });
    expect(inviteProblems({ ...valid, age: '2x' })).toEqual({ age: 'invalid' });
    expect(inviteProblems({ ...valid, name: 'x'.repeat(101) })).toEqual({ name: 'too_long' });
  });

  it('sends the trimmed, lower-cased address and the profile the sign-up hook checks', () => {
    expect(inviteBody(valid, 'https://kiraa.dz/accept-invite')).toEqual({
      email: 'nadia.staff@kiraa.dz',
      redirect_to: 'https://kiraa.dz/accept-invite',
      data: {
        name: 'Nadia Cherif',
        phone: '+213555123456',
        age: 29,
        address: '3 rue Ben Mhidi, Oran',
      },
    });
  });

  it('reads the function’s answer', () => {
    expect(inviteOutcome(200, null)).toBe('sent');
    expect(inviteOutcome(409, 'email_exists')).toBe('email_exists');
    expect(inviteOutcome(403, 'staff_aal2_required')).toBe('second_factor');
    expect(inviteOutcome(422, 'invalid_profile')).toBe('invalid_profile');
    expect(inviteOutcome(502, 'invite_failed')).toBe('failed');
    expect(inviteOutcome(null, null)).toBe('offline');
  });
});
