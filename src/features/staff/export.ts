/**
 * The accountant's CSV of bookings (docs/fleet.md, "Export"): one line per booking, amounts in
 * whole DZD, dates in Algiers time. Semicolons and a byte-order mark, as Excel in French and
 * Arabic opens it; every field quoted when needed, and a text that a spreadsheet would run as a
 * formula is prefixed with an apostrophe.
 */
import { isoToAlgiers } from '@/domain/dates';

export type ExportBooking = {
  reference: string;
  start_at: string;
  end_at: string;
  status: string;
  total_dzd: number;
  price: { days?: number; deposit?: number } | null;
  guest_name: string | null;
  car: { name: string } | null;
  customer: { full_name: string | null } | null;
};

export const CSV_HEADER = [
  'reference',
  'pickup',
  'return',
  'car',
  'customer',
  'days',
  'total_dzd',
  'deposit_dzd',
  'status',
];
const SEPARATOR = ';';
const BOM = '\uFEFF';

function field(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function algiers(iso: string): string {
  const { date, time } = isoToAlgiers(iso);
  return `${date} ${time}`;
}

/** The CSV text of `rows`, header first, lines ended by CRLF. */
export function bookingsCsv(rows: readonly ExportBooking[]): string {
  const lines = [CSV_HEADER.join(SEPARATOR)];
  for (const b of rows) {
    lines.push(
      [
        b.reference,
        algiers(b.start_at),
        algiers(b.end_at),
        b.car?.name ?? '',
        b.customer?.full_name ?? b.guest_name ?? '',
        b.price?.days ?? '',
        b.total_dzd,
        b.price?.deposit ?? '',
        b.status,
      ]
        .map(field)
        .join(SEPARATOR),
    );
  }
  return `${BOM}${lines.join('\r\n')}\r\n`;
}
