import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { ComponentType } from 'react';

import type { SessionState } from '@/infra/session';
import {
  BookIcon,
  CarIcon,
  ChatIcon,
  ClipboardIcon,
  HelpIcon,
  HomeIcon,
  TicketIcon,
  type IconProps,
} from '@/ui/icons';

/** A navigation entry (docs/product.md §3 "Navigation item"). */
export type NavItem = {
  key: string;
  path: string;
  title: MessageDescriptor;
  /** The seed's translation key, kept for reference; Lingui uses `title`. */
  translateKey: string;
  icon: ComponentType<IconProps>;
  type: 'item';
  /** Roles that see it; empty means everyone. */
  authority: string[];
  /** Only for signed-in users, or only for guests (docs/product.md §6: the booking entry changes). */
  audience?: 'signedIn' | 'guest';
  subMenu: NavItem[];
};

/**
 * The main navigation (docs/product.md §2), in order, plus the agency's board for admins (docs/database.md:
 * staff manage bookings at /staff). '#' is the blog, not written yet.
 */
export const navigation: readonly NavItem[] = [
  {
    key: 'home',
    path: '/home',
    title: msg`Accueil`,
    translateKey: 'nav.home',
    icon: HomeIcon,
    type: 'item',
    authority: [],
    subMenu: [],
  },
  {
    key: 'cars',
    path: '/cars',
    title: msg`Voitures`,
    translateKey: 'nav.cars',
    icon: CarIcon,
    type: 'item',
    authority: [],
    subMenu: [],
  },
  {
    key: 'myBookings',
    path: '/mybookings',
    title: msg({ message: 'Réservation', context: 'navigation: my bookings' }),
    translateKey: 'nav.myBookings',
    icon: TicketIcon,
    type: 'item',
    authority: [],
    audience: 'signedIn',
    subMenu: [],
  },
  {
    key: 'staff',
    path: '/staff',
    title: msg`Espace agence`,
    translateKey: 'nav.staff',
    icon: ClipboardIcon,
    type: 'item',
    authority: ['admin'],
    audience: 'signedIn',
    subMenu: [],
  },
  {
    key: 'guestBooking',
    path: '/guest-booking',
    title: msg`Trouver ma réservation`,
    translateKey: 'nav.guestBooking',
    icon: TicketIcon,
    type: 'item',
    authority: [],
    audience: 'guest',
    subMenu: [],
  },
  {
    key: 'qa',
    path: '/qa',
    title: msg`Q&A`,
    translateKey: 'nav.qa',
    icon: HelpIcon,
    type: 'item',
    authority: [],
    subMenu: [],
  },
  {
    key: 'contacts',
    path: '/contacts',
    title: msg`Contacts`,
    translateKey: 'nav.contacts',
    icon: ChatIcon,
    type: 'item',
    authority: [],
    subMenu: [],
  },
  {
    key: 'blog',
    path: '#',
    title: msg`Histoires & Blogs`,
    translateKey: 'nav.blog',
    icon: BookIcon,
    type: 'item',
    authority: [],
    subMenu: [],
  },
];

/** True when a user with `authority` may use something that requires `required` (empty: all). */
export function hasAuthority(required: readonly string[], authority: readonly string[]): boolean {
  return required.length === 0 || required.some((role) => authority.includes(role));
}

/**
 * The entries this visitor sees: the booking entry depends on being signed in, and entries whose
 * authority does not match are hidden. While the session loads, the guest entries show.
 */
export function visibleNavItems(items: readonly NavItem[], session: SessionState): NavItem[] {
  const signedIn = session.status === 'signedIn';
  const authority = session.user?.authority ?? [];
  return items.filter((item) => {
    if (item.audience === 'signedIn' && !signedIn) return false;
    if (item.audience === 'guest' && signedIn) return false;
    if (item.authority.length > 0 && (!signedIn || !hasAuthority(item.authority, authority))) {
      return false;
    }
    return true;
  });
}
