import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import type { Notification } from '@/domain/rows';
import { loadFeatureCatalog } from '@/infra/i18n';
import { setAppBadge } from '@/infra/badge';
import type { SessionUser } from '@/infra/session';
import { BellIcon } from '@/ui/icons';
import { Popover } from '@/ui/popover';

import { badgeText } from '@/features/notifications/notification-display';
import { NotificationList } from '@/features/notifications/notification-list';
import {
  markAllNotificationsRead,
  markNotificationRead,
} from '@/features/notifications/notifications-api';
import {
  useNotificationList,
  useNotificationPolling,
} from '@/features/notifications/use-notifications';

await loadFeatureCatalog('notifications');

export const ACTIVITY_LOG_PATH = '/concepts/account/activity-log';

/**
 * The header's bell (docs/product.md §2, §9): an unread dot and a count (max '99+'); a panel 280 px high and
 * at least 280 px (340 px from the sm breakpoint) wide, with 'mark all read' and 'view all
 * activity'. Choosing a notification marks it read and opens /mybookings.
 *
 * The panel never reaches below the screen. When the screen is short for the text (less than
 * 40 rem high: large text, or a 568 px phone), the list loses its own 280 px scroll box and the
 * whole panel scrolls as one: a notification taller than the box no longer passes under the
 * footer (issue 20, docs/ui.md, "Screens that fit (the layout audit)").
 */
export default function NotificationBell({ user }: { user: SessionUser }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const items = useNotificationList(user.id);
  const { failed, refresh } = useNotificationPolling(user.id);
  const unread = items?.filter((n) => !n.is_read).length ?? 0;
  const badge = badgeText(unread);
  // The app icon's badge mirrors the bell (Badging API, where the browser has it).
  useEffect(() => {
    if (items !== undefined) setAppBadge(unread);
  }, [items, unread]);
  useEffect(() => () => setAppBadge(0), []);

  const open = useCallback(
    (notification: Notification, close: (restoreFocus?: boolean) => void) => {
      close(false);
      void markNotificationRead(notification.id);
      navigate('/mybookings');
    },
    [navigate],
  );

  return (
    <Popover
      kind="dialog"
      panelLabel={t`Notifications`}
      // Below 640 px the panel spans the screen under the header (anchored to the bell, it was
      // cut off at 320 px in English and Arabic).
      panelClassName="w-[280px] sm:w-[340px] max-w-[calc(100vw-1rem)] p-0 max-sm:fixed max-sm:inset-x-2 max-sm:top-[4.25rem] max-sm:mt-0 max-sm:w-auto max-sm:max-w-none"
      onOpenChange={(isOpen) => {
        if (isOpen) void refresh();
      }}
      triggerTestId="notification-bell"
      triggerLabel={badge ? t`Notifications (${badge} non lues)` : t`Notifications`}
      triggerClassName="relative inline-flex size-10 items-center justify-center rounded-lg text-fg hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
      triggerContent={
        <>
          <BellIcon />
          {badge && (
            <span
              data-testid="notification-dot"
              aria-hidden="true"
              className="absolute -end-0.5 -top-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-danger px-1 text-[11px] leading-none font-bold text-on-primary ring-2 ring-surface"
            >
              {badge}
            </span>
          )}
        </>
      }
    >
      {({ close }) => (
        <div
          className="flex max-h-[calc(100dvh-5.5rem)] flex-col overflow-y-auto overscroll-contain"
          data-testid="notification-panel-body"
        >
          <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-4 py-3">
            <h2 className="text-base font-semibold whitespace-nowrap">
              <Trans>Notifications</Trans>
            </h2>
            <button
              type="button"
              disabled={unread === 0}
              onClick={() => void markAllNotificationsRead(user.id)}
              className="rounded-md px-2 py-1 text-end text-xs font-medium text-primary-text sm:text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-50"
            >
              <Trans>Tout marquer comme lu</Trans>
            </button>
          </div>
          <div
            className="h-[280px] shrink-0 overflow-y-auto p-1.5 [@media(max-height:40rem)]:h-auto [@media(max-height:40rem)]:overflow-visible"
            data-testid="notification-panel"
          >
            <NotificationList
              items={items}
              failed={failed}
              onOpen={(notification) => open(notification, close)}
            />
          </div>
          <div className="border-t border-line p-2">
            <Link
              to={ACTIVITY_LOG_PATH}
              onClick={() => close(false)}
              className="flex h-10 w-full items-center justify-center rounded-lg text-sm font-medium text-primary-text hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
            >
              <Trans>Voir toute l'activité</Trans>
            </Link>
          </div>
        </div>
      )}
    </Popover>
  );
}
