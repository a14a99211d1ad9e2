import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** Words for a car's fuel (the database checks the codes). */
export const fuelMessages: Record<string, MessageDescriptor> = {
  petrol: msg`Essence`,
  diesel: msg`Diesel`,
  hybrid: msg`Hybride`,
  electric: msg`Électrique`,
  lpg: msg`GPL`,
};

/** Words for a car's gearbox. */
export const transmissionMessages: Record<string, MessageDescriptor> = {
  automatic: msg`Automatique`,
  manual: msg`Manuelle`,
};

/** The fields that tell two cars of the same name apart. */
export type CarIdentityFields = { year: number; fuel: string; transmission: string };

/** A coded value in words; an unknown code shows as it is rather than disappearing. */
export function codeLabel(
  i18n: I18n,
  table: Record<string, MessageDescriptor>,
  code: string,
): string {
  const descriptor = table[code];
  return descriptor ? i18n._(descriptor) : code;
}

/**
 * "2022 · Diesel · Manuelle": shown beside a car's name in every list and in the booking wizard,
 * so two cars named alike (two Renault Symbol) are told apart.
 */
export function carIdentity(car: CarIdentityFields, i18n: I18n): string {
  return [
    String(car.year),
    codeLabel(i18n, fuelMessages, car.fuel),
    codeLabel(i18n, transmissionMessages, car.transmission),
  ].join(' · ');
}
