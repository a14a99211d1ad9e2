import type { ReactNode, SVGProps } from 'react';

import type { CarFeature } from '@/lib/database.types';
import { cn } from '@/ui/cn';

/** Line icons of the catalogue (24×24, current colour, decorative: the text beside names them). */
type Props = SVGProps<SVGSVGElement> & { size?: number };

function icon(paths: ReactNode, mirrored = false) {
  return function Icon({ size = 20, className, ...rest }: Props) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        className={cn('shrink-0', mirrored && 'rtl:-scale-x-100', className)}
        {...rest}
      >
        {paths}
      </svg>
    );
  };
}

const SnowflakeIcon = icon(
  <path d="M12 2v20M4.9 7l14.2 10M4.9 17L19.1 7M9 4l3 2 3-2M9 20l3-2 3 2" />,
);
const NavigationIcon = icon(<path d="M3 11l18-8-8 18-2-8-8-2z" />);
const SunroofIcon = icon(
  <>
    <path d="M5 17l2-9a2 2 0 0 1 2-1.5h6A2 2 0 0 1 17 8l2 9" />
    <rect x="9" y="8.5" width="6" height="4" rx="1" />
    <path d="M3 17h18v2H3z" />
  </>,
);
const SeatIcon = icon(<path d="M7 3h4l1 9h6a2 2 0 0 1 2 2v3H8a2 2 0 0 1-2-2zM9 17v4M18 17v4" />);
const BluetoothIcon = icon(<path d="M7 7l10 10-5 5V2l5 5L7 17" />);
const HeatIcon = icon(
  <path d="M8 3c-1.5 2 1.5 3 0 5M12 3c-1.5 2 1.5 3 0 5M16 3c-1.5 2 1.5 3 0 5M4 12h16l-2 9H6z" />,
);
const SensorIcon = icon(
  <>
    <path d="M2 20h20M6 16a6 6 0 0 1 12 0" />
    <path d="M9.5 16a2.5 2.5 0 0 1 5 0" />
  </>,
);
export const GearIcon = icon(
  <>
    <circle cx="6" cy="6" r="2" />
    <circle cx="12" cy="6" r="2" />
    <circle cx="18" cy="6" r="2" />
    <circle cx="6" cy="18" r="2" />
    <circle cx="12" cy="18" r="2" />
    <path d="M6 8v8M12 8v8M18 8v4H6" />
  </>,
);
export const PeopleIcon = icon(
  <>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20c.6-3.4 3.2-5.5 6.5-5.5s5.9 2.1 6.5 5.5M16 4.8a3.5 3.5 0 0 1 0 6.4M18.5 14.8c1.6.8 2.7 2.6 3 5.2" />
  </>,
);
export const FuelIcon = icon(
  <path d="M4 21V5a2 2 0 0 1 2-2h6a2 2 0 0 1 2 2v16M3 21h12M4 10h10M14 8l3 3v6a1.5 1.5 0 0 0 3 0V8l-3-3" />,
);
export const CalendarIcon = icon(
  <>
    <rect x="3" y="5" width="18" height="16" rx="2" />
    <path d="M3 10h18M8 3v4M16 3v4" />
  </>,
);
export const PlaneIcon = icon(
  <path d="M10.5 21l1.5-6.5L5 13l-2 2-1-1 2-4 4 .5L13 4a1.5 1.5 0 0 1 2.5 1.5L12 11l.5 4-4 2-1-1 2-2" />,
  true,
);
export const ClockIcon = icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </>,
);
export const DriverIcon = icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <circle cx="12" cy="12" r="2" />
    <path d="M3.5 10.5l6.5 1M20.5 10.5l-6.5 1M12 14v7" />
  </>,
);
export const TagIcon = icon(
  <>
    <path d="M3 12V4a1 1 0 0 1 1-1h8l9 9-9 9z" />
    <circle cx="7.5" cy="7.5" r="1.5" />
  </>,
  true,
);
export const RefundIcon = icon(<path d="M4 4v6h6M4.5 15a8 8 0 1 0 1.9-8.3L4 10" />, true);
export const SmileIcon = icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M8.5 14.5a4.5 4.5 0 0 0 7 0M9 9.5h.01M15 9.5h.01" />
  </>,
);
export const IdIcon = icon(
  <>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <circle cx="9" cy="11" r="2" />
    <path d="M6 16c.5-1.5 1.6-2.2 3-2.2s2.5.7 3 2.2M15 10h3M15 13h3" />
  </>,
);
export const CashIcon = icon(
  <>
    <rect x="2" y="6" width="20" height="12" rx="2" />
    <circle cx="12" cy="12" r="2.5" />
    <path d="M6 9v.01M18 15v.01" />
  </>,
);
export const WifiOffIcon = icon(
  <path d="M2 2l20 20M8.5 16.5a5 5 0 0 1 7 0M5 12.9a10 10 0 0 1 5.2-2.7M19 12.9a10 10 0 0 0-2.2-1.6M2 8.8a15 15 0 0 1 4.2-2.6M22 8.8A15 15 0 0 0 11 5M12 20h.01" />,
);
export const RefreshIcon = icon(
  <path d="M20 11a8 8 0 0 0-14.7-4.3L3 9M3 3v6h6M4 13a8 8 0 0 0 14.7 4.3L21 15M21 21v-6h-6" />,
);
export const ChevronIcon = icon(<path d="M9 6l6 6-6 6" />, true);
export const ChevronBackIcon = icon(<path d="M15 6l-6 6 6 6" />, true);
export const FilterIcon = icon(<path d="M3 5h18l-7 8v6l-4 2v-8z" />);
export const SearchIcon = icon(
  <>
    <circle cx="11" cy="11" r="7" />
    <path d="M20 20l-4-4" />
  </>,
);
export const CarIcon = icon(
  <>
    <path d="M5 17H3v-5l2-5h14l2 5v5h-2M5 12h14" />
    <circle cx="7.5" cy="17" r="2" />
    <circle cx="16.5" cy="17" r="2" />
  </>,
);

export const featureIcons: Record<CarFeature, ReturnType<typeof icon>> = {
  air_conditioning: SnowflakeIcon,
  gps: NavigationIcon,
  sunroof: SunroofIcon,
  leather_seats: SeatIcon,
  bluetooth: BluetoothIcon,
  heated_seats: HeatIcon,
  parking_sensors: SensorIcon,
};
