/**
 * Row shapes of the public schema (docs/database.md), as PostgREST returns them.
 * Timestamps are ISO 8601 strings; money is whole DZD (integers).
 */

import type { Locale } from '@/domain/locale';
import type { WeekHours } from '@/domain/opening-hours';

export type Localized = { fr: string; en: string; ar: string };

export type CarFeature =
  | 'bluetooth'
  | 'gps'
  | 'heated_seats'
  | 'sunroof'
  | 'parking_sensors'
  | 'air_conditioning'
  | 'leather_seats';

export type Transmission = 'automatic' | 'manual';

export type Car = {
  id: string;
  slug: string;
  name: string;
  make: string;
  model: string;
  body: string;
  seats: number;
  doors: number;
  passengers: number;
  fuel: string;
  year: number;
  transmission: Transmission;
  drive: string;
  engine: string;
  mileage_km: number;
  exterior_color: string;
  interior_color: string;
  features: CarFeature[];
  description: Localized;
  daily_rate_dzd: number;
  deposit_dzd: number;
  images: string[];
  active: boolean;
  updated_at: string;
  /** Derived from reviews by the catalogue view; absent when there are none. */
  rating_avg?: number | null;
  rating_count?: number;
};

export type Location = {
  id: string;
  kind: 'city' | 'airport';
  iata: string | null;
  name: Localized;
  delivery_fee_dzd: number;
  active: boolean;
  updated_at: string;
  /** Pickup/return hours per weekday (docs/opening-hours.md); absent on rows synced before. */
  opening_hours?: WeekHours;
  /** Algiers dates the place is closed (YYYY-MM-DD). */
  closed_dates?: string[];
};

export type ExtraCode =
  'baby_seat' | 'full_tank' | 'second_driver' | 'additional_insurance' | 'gps' | 'wifi_hotspot';

export type Extra = {
  code: ExtraCode;
  name: Localized;
  price_dzd: number;
  per: 'day' | 'rental';
  active: boolean;
  updated_at: string;
};

export type InsuranceCode =
  | 'civil_liability'
  | 'collision_damage'
  | 'breakdown_assistance'
  | 'replacement_vehicle'
  | 'glass_headlights'
  | 'tires';

export type InsuranceOption = {
  code: InsuranceCode;
  name: Localized;
  price_dzd_per_day: number;
  included: boolean;
  active: boolean;
  updated_at: string;
};

export type Settings = {
  driver_per_day_dzd: number;
  min_age: number;
  currency: 'DZD';
  time_zone: 'Africa/Algiers';
  /** A pickup starts at most this many days ahead (`booking_too_far_ahead`); 365 by default. */
  booking_horizon_days?: number;
};

export type BookingStatus =
  | 'pending'
  | 'reserved'
  | 'in_progress'
  | 'completed'
  | 'cancelled'
  | 'rejected'
  // A guest booking whose contact was not confirmed in time (set by the server past `confirm_by`).
  | 'expired';

export type PriceBreakdown = {
  days: number;
  base: number;
  extras_total: number;
  insurance_total: number;
  driver_total: number;
  pickup_fee: number;
  dropoff_fee: number;
  subtotal: number;
  deposit: number;
  total: number;
  currency: 'DZD';
};

export type Booking = {
  id: string;
  reference: string;
  user_id: string | null;
  guest_name: string | null;
  guest_phone: string | null;
  guest_email: string | null;
  car_id: string;
  start_at: string;
  end_at: string;
  pickup_location_id: string;
  dropoff_location_id: string;
  driver_option: 'self' | 'provided';
  license_path: string;
  flight_document_path: string | null;
  from_abroad: boolean;
  additional_requests: string | null;
  extras: ExtraCode[];
  insurance: InsuranceCode[];
  payment_method: 'cash';
  payment_status: 'unpaid' | 'paid' | 'refunded';
  price: PriceBreakdown;
  total_dzd: number;
  notes: string | null;
  status: BookingStatus;
  status_reason: string | null;
  /** The language of the guest's mails. */
  locale?: Locale;
  /** Guest bookings: the deadline to confirm the e-mail address (null for customers). */
  confirm_by?: string | null;
  /** Guest bookings: when the e-mail address was confirmed (null until then). */
  contact_confirmed_at?: string | null;
  created_at: string;
  updated_at: string;
};

export type Review = {
  id: string;
  booking_id: string;
  car_id: string;
  user_id: string;
  rating: number;
  comment: string | null;
  created_at: string;
};

export type NotificationType =
  | 'booking_accepted'
  | 'booking_rejected'
  | 'booking_completed'
  | 'booking_cancelled'
  /** A booking queued on a device and refused when it reached the server (`reason_code`). */
  | 'booking_refused'
  | (string & {});

export type Notification = {
  id: string;
  user_id: string;
  booking_id: string | null;
  type: NotificationType;
  /** The booking's reference (a refusal has no booking row, so no `booking_id`). */
  reference?: string | null;
  /** Staff's words, for a rejection or a cancellation. */
  reason?: string | null;
  /** A stable code the app translates (docs/decisions.md): the refusal's, an expiry's. */
  reason_code?: string | null;
  is_read: boolean;
  created_at: string;
  updated_at: string;
};

export type Profile = {
  id: string;
  full_name: string;
  phone: string | null;
  age: number | null;
  address: string | null;
  role: 'user' | 'admin';
  updated_at: string;
};
