import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useMemo } from 'react';

import type { CarFeature } from '@/domain/rows';
import { codeLabel, fuelMessages, transmissionMessages } from '@/ui/car-identity';

/**
 * Words for the coded values of a car row (the database checks the codes: body, drive, colours,
 * features; fuel and gearbox are in src/ui/car-identity.ts, which every list shows beside a
 * car's name). One module for the catalogue's pages and the staff's fleet form: its messages are
 * extracted into both features' catalogs (lingui.config.ts), not the shell's, so no other screen
 * downloads them. An unknown code shows as it is rather than disappearing.
 */
export const bodyMessages: Record<string, MessageDescriptor> = {
  city: msg`Citadine`,
  hatchback: msg`Compacte`,
  sedan: msg`Berline`,
  suv: msg`SUV`,
  pickup: msg`Pick-up`,
  van: msg`Monospace`,
};

const drives: Record<string, MessageDescriptor> = {
  fwd: msg`Traction avant`,
  rwd: msg`Propulsion`,
  awd: msg`Transmission intégrale`,
  '4wd': msg`4×4`,
};

const colors: Record<string, MessageDescriptor> = {
  white: msg({ message: 'Blanc', comment: 'car colour' }),
  black: msg({ message: 'Noir', comment: 'car colour' }),
  silver: msg({ message: 'Argent', comment: 'car colour' }),
  grey: msg({ message: 'Gris', comment: 'car colour' }),
  red: msg({ message: 'Rouge', comment: 'car colour' }),
  blue: msg({ message: 'Bleu', comment: 'car colour' }),
  green: msg({ message: 'Vert', comment: 'car colour' }),
  beige: msg({ message: 'Beige', comment: 'car colour' }),
  brown: msg({ message: 'Marron', comment: 'car colour' }),
  orange: msg({ message: 'Orange', comment: 'car colour' }),
  yellow: msg({ message: 'Jaune', comment: 'car colour' }),
};

const featureMessages: Record<CarFeature, MessageDescriptor> = {
  bluetooth: msg`Bluetooth`,
  gps: msg`GPS`,
  heated_seats: msg`Sièges chauffants`,
  sunroof: msg`Toit ouvrant`,
  parking_sensors: msg`Capteurs de stationnement`,
  air_conditioning: msg`Climatisation`,
  leather_seats: msg`Sièges en cuir`,
};

export type CarCodeLabels = {
  body(code: string): string;
  fuel(code: string): string;
  drive(code: string): string;
  transmission(code: string): string;
  color(code: string): string;
  feature(code: CarFeature): string;
};

export function carCodeLabels(i18n: I18n): CarCodeLabels {
  return {
    body: (code) => codeLabel(i18n, bodyMessages, code),
    fuel: (code) => codeLabel(i18n, fuelMessages, code),
    drive: (code) => codeLabel(i18n, drives, code),
    transmission: (code) => codeLabel(i18n, transmissionMessages, code),
    color: (code) => codeLabel(i18n, colors, code),
    feature: (code) => codeLabel(i18n, featureMessages, code),
  };
}

/** The words in the current language; a new object when the language changes. */
export function useCarCodeLabels(): CarCodeLabels {
  const { i18n } = useLingui();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a locale switch must rebuild them
  return useMemo(() => carCodeLabels(i18n), [i18n, i18n.locale]);
}
