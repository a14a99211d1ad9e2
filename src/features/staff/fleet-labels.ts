import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useMemo } from 'react';

import type { CarFeature } from '@/domain/rows';
import { codeLabel, fuelMessages, transmissionMessages } from '@/ui/car-identity';

/**
 * The words of a car's coded values on the fleet form: the same messages as the catalogue's
 * (src/features/catalogue/labels.ts), repeated here because a feature never imports another.
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

const featureMessages: Record<CarFeature, MessageDescriptor> = {
  bluetooth: msg`Bluetooth`,
  gps: msg`GPS`,
  heated_seats: msg`Sièges chauffants`,
  sunroof: msg`Toit ouvrant`,
  parking_sensors: msg`Capteurs de stationnement`,
  air_conditioning: msg`Climatisation`,
  leather_seats: msg`Sièges en cuir`,
};

export type FleetLabels = {
  body(code: string): string;
  fuel(code: string): string;
  drive(code: string): string;
  transmission(code: string): string;
  color(code: string): string;
  feature(code: CarFeature): string;
};

function fleetLabels(i18n: I18n): FleetLabels {
  return {
    body: (code) => codeLabel(i18n, bodies, code),
    fuel: (code) => codeLabel(i18n, fuelMessages, code),
    drive: (code) => codeLabel(i18n, drives, code),
    transmission: (code) => codeLabel(i18n, transmissionMessages, code),
    color: (code) => codeLabel(i18n, colors, code),
    feature: (code) => codeLabel(i18n, featureMessages, code),
  };
}

export function useFleetLabels(): FleetLabels {
  const { i18n } = useLingui();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a locale switch must rebuild them
  return useMemo(() => fleetLabels(i18n), [i18n, i18n.locale]);
}
