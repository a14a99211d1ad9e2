/**
 * Booking references: `KR-XXXX-XXXX` in Crockford base32 (docs/decisions.md). Generated on the
 * device so a guest has one at once, even offline; the server checks format and uniqueness.
 * 40 random bits: a collision is refused by the server (`reference_taken`) and parks the booking.
 */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A reference's shape, to find one inside a sentence (notifications, toasts, legal texts). */
export const REFERENCE_PATTERN = 'KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}';

export const REFERENCE_RE = new RegExp(`^${REFERENCE_PATTERN}$`);

type RandomSource = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>;

const defaultRandom: RandomSource = (bytes) => crypto.getRandomValues(bytes);

/** A new random reference. 32 divides 256, so `byte & 31` is unbiased. */
export function generateReference(random: RandomSource = defaultRandom): string {
  const bytes = random(new Uint8Array(8));
  let chars = '';
  for (const byte of bytes) chars += CROCKFORD_ALPHABET[byte & 31];
  return `KR-${chars.slice(0, 4)}-${chars.slice(4, 8)}`;
}

export function isReference(value: unknown): value is string {
  return typeof value === 'string' && REFERENCE_RE.test(value);
}

/**
 * What a person typed, read the Crockford way: case-insensitive, spaces and dashes ignored,
 * I and L read as 1, O as 0, with or without the `KR` prefix. Null when it cannot be a reference.
 */
export function normalizeReference(input: string): string | null {
  let s = input.toUpperCase().replace(/[\s\-_.]/g, '');
  if (s.startsWith('KR')) s = s.slice(2);
  s = s.replace(/[IL]/g, '1').replace(/O/g, '0');
  if (!/^[0-9A-HJKMNP-TV-Z]{8}$/.test(s)) return null;
  return `KR-${s.slice(0, 4)}-${s.slice(4)}`;
}
