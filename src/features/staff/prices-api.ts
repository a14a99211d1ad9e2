/**
 * The prices screen's calls (docs/staff-prices.md): the catalogue rows read from their tables,
 * every change through a staff RPC that checks it (`invalid_price`, `name_required`,
 * `name_too_long`, `invalid_name`, `not_allowed`, and the row's own "not found" code).
 */
import type { Localized } from '@/domain/rows';
import { supabase } from '@/infra/supabase';

import { staffCall } from '@/features/staff/staff-call';

export type PriceKind = 'location' | 'extra' | 'insurance';

/** One priced row of the catalogue, whatever its table. */
export type PricedRow = {
  kind: PriceKind;
  key: string;
  name: Localized;
  price: number;
  /** `per = 'rental'` extras: once per rental; the others per day (a place's fee: once). */
  per: 'day' | 'rental' | 'once';
  /** An included insurance option stays free. */
  locked: boolean;
  active: boolean;
};

export type PriceLists = { rows: PricedRow[]; driverRate: number };

type Row = Record<string, unknown>;

export async function loadPrices() {
  const [locations, extras, insurance, settings] = await Promise.all([
    staffCall<Row[]>(() =>
      supabase.from('locations').select('id, name, delivery_fee_dzd, active').order('sort_order'),
    ),
    staffCall<Row[]>(() =>
      supabase.from('extras').select('code, name, price_dzd, per, active').order('sort_order'),
    ),
    staffCall<Row[]>(() =>
      supabase
        .from('insurance_options')
        .select('code, name, price_dzd_per_day, included, active')
        .order('sort_order'),
    ),
    staffCall<Row>(() => supabase.from('settings').select('driver_per_day_dzd').single()),
  ]);
  for (const r of [locations, extras, insurance, settings]) if (!r.ok) return r;
  if (!locations.ok || !extras.ok || !insurance.ok || !settings.ok) throw new Error('unreachable');
  const rows: PricedRow[] = [
    ...locations.data.map((l) => ({
      kind: 'location' as const,
      key: String(l.id),
      name: l.name as Localized,
      price: Number(l.delivery_fee_dzd),
      per: 'once' as const,
      locked: false,
      active: Boolean(l.active),
    })),
    ...extras.data.map((e) => ({
      kind: 'extra' as const,
      key: String(e.code),
      name: e.name as Localized,
      price: Number(e.price_dzd),
      per: e.per === 'rental' ? ('rental' as const) : ('day' as const),
      locked: false,
      active: Boolean(e.active),
    })),
    ...insurance.data.map((i) => ({
      kind: 'insurance' as const,
      key: String(i.code),
      name: i.name as Localized,
      price: Number(i.price_dzd_per_day),
      per: 'day' as const,
      locked: Boolean(i.included),
      active: Boolean(i.active),
    })),
  ];
  return {
    ok: true as const,
    data: { rows, driverRate: Number(settings.data.driver_per_day_dzd) } satisfies PriceLists,
  };
}

export function savePrice(row: PricedRow, price: number, name: Localized) {
  return staffCall<Row>(() =>
    row.kind === 'location'
      ? supabase.rpc('staff_update_location', {
          location_id: row.key,
          delivery_fee_dzd: price,
          name,
        })
      : row.kind === 'extra'
        ? supabase.rpc('staff_update_extra', { code: row.key, price_dzd: price, name })
        : supabase.rpc('staff_update_insurance', {
            code: row.key,
            price_dzd_per_day: price,
            name,
          }),
  );
}

export function saveDriverRate(rate: number) {
  return staffCall<Row>(() => supabase.rpc('staff_set_driver_rate', { driver_per_day_dzd: rate }));
}
