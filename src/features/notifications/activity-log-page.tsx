import { Trans } from '@lingui/react/macro';
import { useNavigate } from 'react-router-dom';

import { useSession } from '@/infra/session';
import { Button } from '@/ui/button';
import { PageSpinner } from '@/ui/spinner';

import { NotificationList } from '@/features/notifications/notification-list';
import {
  markAllNotificationsRead,
  markNotificationRead,
} from '@/features/notifications/notifications-api';
import {
  useNotificationList,
  useNotificationPolling,
} from '@/features/notifications/use-notifications';

function ActivityLog({ userId }: { userId: string }) {
  const navigate = useNavigate();
  const items = useNotificationList(userId);
  const { failed } = useNotificationPolling(userId);
  const unread = items?.filter((n) => !n.is_read).length ?? 0;

  return (
    <section
      className="mx-auto flex w-full max-w-2xl flex-col gap-4 py-6"
      aria-labelledby="activity-title"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="activity-title" className="text-2xl font-bold">
          <Trans>Activité</Trans>
        </h1>
        <Button
          variant="secondary"
          size="sm"
          disabled={unread === 0}
          onClick={() => void markAllNotificationsRead(userId)}
        >
          <Trans>Tout marquer comme lu</Trans>
        </Button>
      </div>
      <div className="rounded-xl border border-line bg-surface p-1.5">
        <NotificationList
          items={items}
          failed={failed}
          onOpen={(notification) => {
            void markNotificationRead(notification.id);
            navigate('/mybookings');
          }}
        />
      </div>
    </section>
  );
}

/** /concepts/account/activity-log: every notification of the signed-in user (docs/product.md §2). */
export default function ActivityLogPage() {
  const { status, user } = useSession();
  // The route guard only lets signed-in users in; this covers the instant while it loads.
  if (status !== 'signedIn' || !user) return <PageSpinner />;
  return <ActivityLog userId={user.id} />;
}
