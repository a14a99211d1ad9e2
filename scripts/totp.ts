/**
 * Prints the current TOTP code of the seed's demo admin (or of the base32 secret given), for
 * signing in to the staff screens of a local stack without an authenticator app:
 *   npm run totp            → the demo admin's code and how long it stays valid
 *   npm run totp -- SECRET  → the code of another factor's secret
 * Codes come from the pinned `otpauth` package, as in the tests (tests/support/mfa.ts).
 */
import { DEMO_ADMIN_TOTP_SECRET, totpCode } from '../tests/support/mfa.ts';

const secret = (process.argv[2] ?? DEMO_ADMIN_TOTP_SECRET).trim().toUpperCase();
if (!/^[A-Z2-7]+=*$/.test(secret)) {
  console.error('The secret must be base32 (A–Z, 2–7).');
  process.exit(1);
}
const left = 30 - (Math.floor(Date.now() / 1000) % 30);
console.log(`${totpCode(secret)}  (valid for ${left} s more, and the next 30 s)`);
