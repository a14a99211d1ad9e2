import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useMemo } from 'react';

import { type Locale, localized } from '@/domain/locale';
import type { CarFeature, Localized } from '@/domain/rows';
import { codeLabel, fuelMessages, transmissionMessages } from '@/ui/car-identity';
import {
  BluetoothIcon,
  HeatIcon,
  NavigationIcon,
  SeatIcon,
  SensorIcon,
  SnowflakeIcon,
  SunroofIcon,
} from '@/ui/icons';

/**
 * Words for the coded values of a car row (the database checks them: body, fuel, drive, colours,
 * transmission, features). An unknown code shows as it is rather than disappearing. Fuel and
 * gearbox live in src/ui/car-identity.ts: every list shows them beside a car's name.
 */
const bodies: Record<string, MessageDescriptor> = {
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

export const featureMessages: Record<CarFeature, MessageDescriptor> = {
  bluetooth: msg`Bluetooth`,
  gps: msg`GPS`,
  heated_seats: msg`Sièges chauffants`,
  sunroof: msg`Toit ouvrant`,
  parking_sensors: msg`Capteurs de stationnement`,
  air_conditioning: msg`Climatisation`,
  leather_seats: msg`Sièges en cuir`,
};

/** The picture beside each feature's words. */
export const featureIcons: Record<CarFeature, typeof SnowflakeIcon> = {
  air_conditioning: SnowflakeIcon,
  gps: NavigationIcon,
  sunroof: SunroofIcon,
  leather_seats: SeatIcon,
  bluetooth: BluetoothIcon,
  heated_seats: HeatIcon,
  parking_sensors: SensorIcon,
};

export type CarLabels = {
  locale: Locale;
  body(code: string): string;
  fuel(code: string): string;
  drive(code: string): string;
  transmission(code: string): string;
  color(code: string): string;
  feature(code: CarFeature): string;
  /** A name in the current language, French when missing. */
  localized(value: Localized | null | undefined): string;
};

export function carLabels(i18n: I18n): CarLabels {
  const locale = (i18n.locale || 'fr') as Locale;
  return {
    locale,
    body: (code) => codeLabel(i18n, bodies, code),
    fuel: (code) => codeLabel(i18n, fuelMessages, code),
    drive: (code) => codeLabel(i18n, drives, code),
    transmission: (code) => codeLabel(i18n, transmissionMessages, code),
    color: (code) => codeLabel(i18n, colors, code),
    feature: (code) => codeLabel(i18n, featureMessages, code),
    localized: (value) => localized(value, locale),
  };
}

/** The labels in the current language; a new object when the language changes. */
export function useCarLabels(): CarLabels {
  const { i18n } = useLingui();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a locale switch must rebuild them
  return useMemo(() => carLabels(i18n), [i18n, i18n.locale]);
}
