/**
 * Compile-time guard (checked by `npm run typecheck`, nothing runs): the hand-written row shapes
 * of src/domain/rows.ts must stay true to the schema that `supabase gen types typescript`
 * describes in ./database.types.ts. A hand-written field must be a column of the table, its type
 * a narrowing of the column's (`'automatic' | 'manual'` for a text column is fine, `number` for a
 * text column is not), nullable exactly when the column is; a column the shape leaves out is
 * named in `Omitted`. A migration that renames, retypes or drops a column breaks the build here.
 */
import type {
  Booking,
  Car,
  Extra,
  InsuranceOption,
  Location,
  Notification,
  Profile,
  Review,
  Settings,
} from '@/domain/rows';

import type { Database } from './database.types';

type Tables = Database['public']['Tables'];

/** The keys of `Hand` that are not columns of `Row`. */
type Unknown<Hand, Row> = Exclude<keyof Hand, keyof Row>;

/** Columns of `Row` the shape neither has nor declares as omitted. */
type Missing<Hand, Row, Omitted extends PropertyKey> = Exclude<keyof Row, keyof Hand | Omitted>;

/** Fields whose hand-written type does not fit the column: wrong type or wrong nullability. */
type Misfits<Hand, Row> = {
  [K in keyof Hand & keyof Row]-?: [Exclude<Hand[K], undefined>] extends [Row[K]]
    ? [null] extends [Row[K]]
      ? [null] extends [Hand[K]]
        ? never
        : K
      : never
    : K;
}[keyof Hand & keyof Row];

/** `true` when the shape fits, else an object naming what drifted (the compiler shows it). */
type Fits<Hand, Row, Omitted extends PropertyKey = never> = [
  Unknown<Hand, Row> | Missing<Hand, Row, Omitted> | Misfits<Hand, Row>,
] extends [never]
  ? true
  : {
      notColumns: Unknown<Hand, Row>;
      missingColumns: Missing<Hand, Row, Omitted>;
      wrongTypes: Misfits<Hand, Row>;
    };

type Expect<T extends true> = T;

export type RowShapesFitTheSchema = [
  Expect<Fits<Car, Tables['cars']['Row'], 'created_at'>>,
  Expect<Fits<Location, Tables['locations']['Row'], 'created_at' | 'sort_order'>>,
  Expect<Fits<Extra, Tables['extras']['Row'], 'created_at' | 'sort_order'>>,
  Expect<Fits<InsuranceOption, Tables['insurance_options']['Row'], 'created_at' | 'sort_order'>>,
  // The limits of public booking and the mail links' site are the server's; the app reads only
  // the booking horizon (the wizard checks it).
  Expect<
    Fits<
      Settings,
      Tables['settings']['Row'],
      | 'id'
      | 'updated_at'
      | 'guest_hold_minutes'
      | 'max_pending_per_contact'
      | 'max_pending_per_account'
      | 'max_pending_per_domain'
      | 'max_pending_private_per_address'
      | 'max_fleet_share_per_address'
      | 'max_unconfirmed_per_address_hour'
      | 'max_guest_upload_mb_per_address_hour'
      | 'max_code_mails_per_address_hour'
      | 'max_code_mails_per_address_day'
      | 'max_bookings_per_hour'
      | 'max_mails_per_address_hour'
      | 'max_mails_per_address_day'
      | 'lookup_failures_per_reference'
      | 'lookup_failures_per_address'
      | 'site_url'
    >
  >,
  // `period` is the generated range the RPCs leave out.
  Expect<Fits<Booking, Tables['bookings']['Row'], 'period'>>,
  Expect<Fits<Review, Tables['reviews']['Row']>>,
  Expect<Fits<Notification, Tables['notifications']['Row']>>,
  Expect<Fits<Profile, Tables['profiles']['Row'], 'created_at'>>,
];
