import { Trans } from '@lingui/react/macro';
import { useEffect, useState } from 'react';

import type { Notification } from '@/domain/rows';
import { BellIcon } from '@/ui/icons';
import { Spinner } from '@/ui/spinner';

import { NotificationItem } from '@/features/notifications/notification-item';
import { useBookingReferences } from '@/features/notifications/use-notifications';

/** Re-renders every minute so "5 minutes ago" stays true. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The list shared by the bell and the activity page. Empty: 'No notifications!', with 'Please
 * try again later' when the last fetch failed (docs/product.md §4, §8).
 */
export function NotificationList({
  items,
  failed,
  onOpen,
}: {
  items: Notification[] | undefined;
  failed: boolean;
  onOpen: (notification: Notification) => void;
}) {
  const now = useNow();
  const references = useBookingReferences(
    (items ?? []).flatMap((n) => (n.booking_id ? [n.booking_id] : [])),
  );

  if (items === undefined) {
    return (
      <div className="flex justify-center py-8 text-primary-text">
        <Spinner label />
      </div>
    );
  }
  if (items.length === 0) {
    return (
      <div
        className="flex flex-col items-center gap-2 px-4 py-8 text-center"
        data-testid="notifications-empty"
      >
        <BellIcon size={32} className="text-fg-muted" />
        <p className="font-semibold">
          <Trans>Aucune notification !</Trans>
        </p>
        {failed && (
          <p className="text-sm text-fg-muted">
            <Trans>Veuillez réessayer plus tard</Trans>
          </p>
        )}
      </div>
    );
  }
  return (
    <ul className="flex flex-col gap-0.5">
      {items.map((n) => (
        <li key={n.id}>
          <NotificationItem
            notification={n}
            reference={n.reference || (n.booking_id && references?.get(n.booking_id)) || null}
            now={now}
            onOpen={onOpen}
          />
        </li>
      ))}
    </ul>
  );
}
