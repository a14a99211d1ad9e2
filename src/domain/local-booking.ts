/**
 * A booking as this device knows it: the server's row, or the request still waiting in the
 * outbox, with where it stands on its way to the server.
 */
import type { Booking, BookingStatus, PriceBreakdown } from '@/domain/rows';

/**
 * Local sync state of a booking, beside the server's `status`:
 * queued (in the outbox) → sending → awaiting (sent, server status pending) → confirmed,
 * or needs_attention (refused for good; `sync_error` says why).
 */
export type BookingSyncState = 'queued' | 'sending' | 'awaiting' | 'confirmed' | 'needs_attention';

/** A booking as this device knows it: the server row, or the draft that waits in the outbox. */
export type LocalBooking = Omit<
  Booking,
  'status' | 'price' | 'total_dzd' | 'created_at' | 'updated_at'
> & {
  status: BookingStatus | LocalStatus;
  price: PriceBreakdown;
  total_dzd: number;
  created_at: string;
  updated_at: string;
  sync_state: BookingSyncState;
  sync_error: string | null;
  /** True when made on this device by a signed-out visitor. */
  is_guest: boolean;
  /**
   * A refusal at sync told to the server (`report_refused_booking`): `pending` until it answered,
   * `reported`, or `notified` when the person was told by mail or notification.
   */
  refusal_report?: 'pending' | 'reported' | 'notified';
  /**
   * A guest booking: whether the server could mail its latest confirmation code (create_booking's
   * answer; false when the address had its share of code mails: the app offers the agency).
   */
  code_mail_sent?: boolean | null;
  /** Stored by a lookup ("Find my booking") only, not made on this device. */
  looked_up?: boolean;
};

/** The statuses only this device knows: not sent yet, or refused by the server for good. */
export type LocalStatus = 'queued' | 'sync_failed';

/** The sync state a server status means for a booking that reached the server. */
export function syncStateOf(status: BookingStatus): BookingSyncState {
  return status === 'pending' ? 'awaiting' : 'confirmed';
}
