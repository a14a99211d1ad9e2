import type { I18n } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { useMemo } from 'react';

import { type Locale, localized } from '@/domain/locale';
import type { CarFeature, Localized } from '@/domain/rows';
import { carCodeLabels, type CarCodeLabels } from '@/ui/car-codes';
import {
  BluetoothIcon,
  HeatIcon,
  NavigationIcon,
  SeatIcon,
  SensorIcon,
  SnowflakeIcon,
  SunroofIcon,
} from '@/ui/icons';

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

/**
 * Words for a car on the catalogue's pages: its coded values (src/ui/car-codes.ts, shared with
 * the staff's fleet form) and its names in the current language.
 */
export type CarLabels = CarCodeLabels & {
  locale: Locale;
  /** A name in the current language, French when missing. */
  localized(value: Localized | null | undefined): string;
};

export function carLabels(i18n: I18n): CarLabels {
  const locale = (i18n.locale || 'fr') as Locale;
  return {
    ...carCodeLabels(i18n),
    locale,
    localized: (value) => localized(value, locale),
  };
}

/** The labels in the current language; a new object when the language changes. */
export function useCarLabels(): CarLabels {
  const { i18n } = useLingui();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a locale switch must rebuild them
  return useMemo(() => carLabels(i18n), [i18n, i18n.locale]);
}
