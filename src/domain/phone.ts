/**
 * A phone number as Kiraa stores and compares it, whoever typed it where (the booking form, the
 * sign-up form, "Find my booking"): spaces, dots, dashes and brackets removed; 00… read as +…; an
 * Algerian national number 0XXXXXXXXX read as +213XXXXXXXXX; the trunk 0 after +213 dropped
 * (+2130555… is +213555…). Null when the result is not + and 8 to 15 digits. The database applies
 * the same rule (`internal.normalize_phone`); tests/api/phone.test.ts holds the two equal.
 */
export function normalizePhone(value: string): string | null {
  let v = value.replace(/[\s.()-]/g, '');
  if (/^00[1-9]/.test(v)) v = `+${v.slice(2)}`;
  else if (/^0[1-9]\d{8}$/.test(v)) v = `+213${v.slice(1)}`;
  if (/^\+2130[1-9]\d{8}$/.test(v)) v = `+213${v.slice(5)}`;
  return /^\+[1-9]\d{7,14}$/.test(v) ? v : null;
}
