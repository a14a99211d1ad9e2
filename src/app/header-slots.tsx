import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';

import type { SessionUser } from '@/infra/session';

/**
 * The signed-in corner of the header (docs/product.md §1: the notification bell and the user menu).
 * Their owners add their components here, one `lazy` line each (import `lazy` from 'react'),
 * in display order, e.g.
 *
 *   lazy(() => import('@/features/notifications/notification-bell')),
 *   lazy(() => import('@/features/auth/user-menu')),
 *
 * Each module default-exports a component taking `{ user: SessionUser }` (the signed-in user);
 * it is loaded only once someone is signed in, so guests never download it. A component that
 * needs its feature's catalog calls `loadFeatureCatalog` from its module top level.
 */
export type SignedInSlotProps = { user: SessionUser };

const signedInSlots: ReadonlyArray<LazyExoticComponent<ComponentType<SignedInSlotProps>>> = [
  // --- notifications (bell) ---
  lazy(() => import('@/features/notifications/notification-bell')),
  // --- auth (user menu) ---
  lazy(() => import('@/features/auth/user-menu')),
];

export function SignedInSlots({ user }: SignedInSlotProps) {
  return (
    <Suspense fallback={<span className="size-10" aria-hidden="true" />}>
      {signedInSlots.map((Slot, index) => (
        <Slot key={index} user={user} />
      ))}
    </Suspense>
  );
}
