/**
 * The route table (docs/architecture.md, docs/product.md §2). Every screen is its own lazy chunk.
 *
 * Adding a screen of your feature:
 *   1. default-export the screen from `src/features/<feature>/<name>-page.tsx`;
 *   2. add ONE line to your feature's section below, e.g.
 *        { path: 'cars', lazy: page('catalogue', () => import('@/features/catalogue/cars-page')) },
 *      `page()` loads the module and the feature's Lingui catalog together, before it renders.
 * Stay inside your own section (one line per route) so edits made in parallel merge cleanly.
 * Layouts, guards and redirects are the shell's (src/app, docs/ui.md).
 */
import { Navigate, type RouteObject } from 'react-router-dom';

import { WizardLoadingFrame } from '@/app/frames';
import { RequireAuth } from '@/app/guards';
import { RootLayout } from '@/app/layouts/root-layout';
import { SideLayout } from '@/app/layouts/side-layout';
import { TopBarLayout } from '@/app/layouts/top-bar-layout';
import { page } from '@/app/screens';

// --- Public pages, top-bar layout -----------------------------------------------------------------
const publicRoutes: RouteObject[] = [
  // catalogue
  { path: 'home', lazy: page('catalogue', () => import('@/features/catalogue/home-page')) },
  { path: 'cars', lazy: page('catalogue', () => import('@/features/catalogue/cars-page')) },
  {
    path: 'cars/:slug',
    lazy: page('catalogue', () => import('@/features/catalogue/car-details-page')),
  },
  // booking
  {
    path: 'cars/book',
    lazy: page(['booking', 'domain'], () => import('@/features/booking/booking-page'), {
      frame: WizardLoadingFrame,
    }),
  },
  {
    path: 'booking-success',
    lazy: page(['booking', 'domain'], () => import('@/features/booking/booking-success-page')),
  },
  {
    path: 'guest-booking',
    lazy: page(['booking', 'domain'], () => import('@/features/booking/guest-booking-page')),
  },
  // bookings (guest lookup)
  // content
  { path: 'qa', lazy: page('content', () => import('@/features/content/qa-page')) },
  { path: 'contacts', lazy: page('content', () => import('@/features/content/contacts-page')) },
  {
    path: 'privacy-policy',
    lazy: page('content', () => import('@/features/content/privacy-page')),
  },
  { path: 'terms', lazy: page('content', () => import('@/features/content/terms-page')) },
];

// --- Signed-in pages, top-bar layout (any role) ---------------------------------------------------
const signedInRoutes: RouteObject[] = [
  // notifications
  {
    path: 'concepts/account/activity-log',
    lazy: page('notifications', () => import('@/features/notifications/activity-log-page')),
  },
  // auth (account settings)
  // Its own words in the account catalog (lingui.config.ts), beside the auth forms' shared ones.
  {
    path: 'account',
    lazy: page(['auth', 'account'], () => import('@/features/auth/account-page')),
  },
  // bookings
  {
    path: 'mybookings',
    lazy: page(['bookings', 'domain'], () => import('@/features/bookings/my-bookings-page')),
  },
];

// --- Authentication pages, side layout, open to all -----------------------------------------------
const authRoutes: RouteObject[] = [
  // auth
  { path: 'sign-in', lazy: page('auth', () => import('@/features/auth/sign-in-page')) },
  {
    path: 'sign-in/code',
    lazy: page('auth', () => import('@/features/auth/code-sign-in-page')),
  },
  { path: 'sign-up', lazy: page('auth', () => import('@/features/auth/sign-up-page')) },
  {
    path: 'forgot-password',
    lazy: page('auth', () => import('@/features/auth/forgot-password-page')),
  },
  {
    path: 'reset-password',
    lazy: page('auth', () => import('@/features/auth/reset-password-page')),
  },
  { path: 'accept-invite', lazy: page('auth', () => import('@/features/auth/accept-invite-page')) },
];

// --- Staff pages (role admin) ---------------------------------------------------------------------
const staffRoutes: RouteObject[] = [
  // staff: paths under /staff/, e.g. { path: 'staff/*', lazy: page(['staff', 'domain'], () => import(…)) },
  {
    path: 'staff',
    lazy: page(['staff', 'domain'], () => import('@/features/staff/staff-board-page')),
  },
  {
    path: 'staff/bookings/:id',
    lazy: page(['staff', 'domain'], () => import('@/features/staff/staff-booking-page')),
  },
  {
    path: 'staff/calendar',
    lazy: page(['staff', 'domain'], () => import('@/features/staff/staff-calendar-page')),
  },
  {
    path: 'staff/cars',
    lazy: page(['staff', 'domain'], () => import('@/features/staff/staff-cars-page')),
  },
  {
    path: 'staff/places',
    lazy: page(['staff', 'domain'], () => import('@/features/staff/places-page')),
  },
  {
    path: 'staff/prices',
    lazy: page(['staff', 'domain'], () => import('@/features/staff/prices-page')),
  },
  { path: 'staff/team', lazy: page('staff', () => import('@/features/staff/staff-team-page')) },
];

/**
 * The whole tree. Rendered with `useRoutes` in declarative mode (src/app/app.tsx): it keeps the
 * first screen ~20 KB lighter than react-router's data router. Each layout catches render
 * errors of its pages (RouteErrorBoundary) and shows a spinner while a screen's chunk loads.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      {
        element: <TopBarLayout />,
        children: [
          ...publicRoutes,
          { element: <RequireAuth />, children: signedInRoutes },
          {
            // docs/product.md §6: needs the admin or user role; without it, home (not itself again).
            element: <RequireAuth authority={['admin', 'user']} deniedTo="/home" />,
            children: [
              {
                path: 'access-denied',
                lazy: page('content', () => import('@/features/content/access-denied-page')),
              },
            ],
          },
          { element: <RequireAuth authority={['admin']} />, children: staffRoutes },
        ],
      },
      { element: <SideLayout />, children: authRoutes },
      // Unknown paths land on the home page (docs/product.md §2).
      { path: '*', element: <Navigate to="/home" replace /> },
    ],
  },
];
