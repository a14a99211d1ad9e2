/**
 * The staff invitation form's rules (docs/auth.md, "Staff invitations"): the invitee's address and
 * profile, checked as a sign-up's (the Before User Created hook checks them again on the server),
 * and the invite-staff Edge Function's answer turned into what the page says.
 */
import { normalizePhone } from '@/domain/phone';

export type InviteForm = {
  email: string;
  name: string;
  phone: string;
  age: string;
  address: string;
};
export type InviteField = keyof InviteForm;
export type InviteProblem = 'required' | 'invalid' | 'too_long';

export const emptyInviteForm: InviteForm = { email: '', name: '', phone: '', age: '', address: '' };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+[1-9]\d{7,14}$/;
const LIMITS: Record<InviteField, number> = {
  email: 254,
  name: 100,
  phone: 32,
  age: 3,
  address: 200,
};

/** The problem of each field, empty when the form may be sent. */
export function inviteProblems(form: InviteForm): Partial<Record<InviteField, InviteProblem>> {
  const problems: Partial<Record<InviteField, InviteProblem>> = {};
  for (const field of Object.keys(LIMITS) as InviteField[]) {
    const value = form[field].trim();
    if (value === '') problems[field] = 'required';
    else if (value.length > LIMITS[field]) problems[field] = 'too_long';
  }
  if (!problems.email && !EMAIL.test(form.email.trim())) problems.email = 'invalid';
  if (!problems.phone && !PHONE.test(normalizePhone(form.phone) ?? form.phone.trim())) {
    problems.phone = 'invalid';
  }
  if (!problems.age) {
    const age = Number(form.age.trim());
    if (!/^\d{1,3}$/.test(form.age.trim()) || age < 18 || age > 120) problems.age = 'invalid';
  }
  return problems;
}

/** The function's body: the address, and the profile the hook checks. */
export function inviteBody(form: InviteForm, redirectTo: string) {
  return {
    email: form.email.trim().toLowerCase(),
    redirect_to: redirectTo,
    data: {
      name: form.name.trim(),
      phone: normalizePhone(form.phone) ?? form.phone.trim(),
      age: Number(form.age.trim()),
      address: form.address.trim(),
    },
  };
}

export type InviteOutcome =
  'sent' | 'email_exists' | 'second_factor' | 'invalid_profile' | 'offline' | 'failed';

/** What the function's status and error code mean for the page. */
export function inviteOutcome(status: number | null, error: string | null): InviteOutcome {
  if (status === null) return 'offline';
  if (status === 200) return 'sent';
  if (status === 409 || error === 'email_exists') return 'email_exists';
  if (status === 403) return 'second_factor';
  if (status === 422 || status === 400) return 'invalid_profile';
  return 'failed';
}
