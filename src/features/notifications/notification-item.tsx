import { Trans, useLingui } from '@lingui/react/macro';

import type { Notification } from '@/domain/rows';
import { cn } from '@/ui/cn';
import { CalendarIcon, CheckIcon, CloseIcon } from '@/ui/icons';
import { LogoMark } from '@/ui/logo';

import {
  notificationAvatar,
  notificationBody,
  notificationReason,
  notificationCategory,
  notificationTitle,
  relativeTime,
  type NotificationAvatar,
} from '@/features/notifications/notification-display';
import { TextWithReferences } from '@/ui/reference-text';

function Avatar({ avatar }: { avatar: NotificationAvatar }) {
  const baseClassName = 'inline-flex size-9 shrink-0 items-center justify-center rounded-full';
  if (avatar.kind === 2) {
    const ok = avatar.status === 'succeed';
    return (
      <span
        aria-hidden="true"
        data-avatar={ok ? 'succeed' : 'failed'}
        className={cn(
          baseClassName,
          ok ? 'bg-success/15 text-success' : 'bg-danger/15 text-danger',
        )}
      >
        {ok ? <CheckIcon size={18} /> : <CloseIcon size={18} />}
      </span>
    );
  }
  if (avatar.kind === 1) {
    return (
      <span
        aria-hidden="true"
        data-avatar="calendar"
        className={cn(baseClassName, 'bg-primary-soft text-primary-text')}
      >
        <CalendarIcon size={18} />
      </span>
    );
  }
  return (
    <span aria-hidden="true" data-avatar="person" className={cn(baseClassName, 'bg-muted')}>
      <LogoMark size={22} />
    </span>
  );
}

/** One notification: avatar, title, sentence, time, and a dot while unread. */
export function NotificationItem({
  notification,
  reference,
  now,
  onOpen,
}: {
  notification: Notification;
  reference: string | null;
  now: number;
  onOpen: (notification: Notification) => void;
}) {
  const { i18n } = useLingui();
  const category = notificationCategory(notification.type);
  const title = i18n._(notificationTitle(notification.type));
  const reason = notificationReason(i18n, notification);
  const unread = !notification.is_read;
  return (
    <button
      type="button"
      onClick={() => onOpen(notification)}
      data-testid="notification-item"
      data-unread={unread ? 'true' : 'false'}
      data-category={category}
      className={cn(
        // The words keep at least 10 rem: with large text they go under the avatar rather than
        // into a column a few letters wide (issue 20).
        'flex w-full flex-wrap items-start gap-3 rounded-lg px-3 py-2.5 text-start',
        'hover:bg-muted focus-visible:bg-muted focus-visible:outline-2 focus-visible:outline-ring',
      )}
    >
      <Avatar avatar={notificationAvatar(category)} />
      <span className="flex min-w-[min(10rem,100%)] flex-1 flex-col gap-0.5">
        <span className={cn('text-sm', unread ? 'font-semibold' : 'font-medium')}>{title}</span>
        <span className="text-sm text-fg-muted">
          <TextWithReferences text={notificationBody(i18n, notification.type, reference)} />
        </span>
        {reason && (
          <span className="text-sm break-words" data-testid="notification-reason" dir="auto">
            {reason}
          </span>
        )}
        <time dateTime={notification.created_at} className="text-xs text-fg-muted">
          {relativeTime(notification.created_at, now, i18n.locale)}
        </time>
      </span>
      {unread && (
        <span className="mt-1.5 size-2.5 shrink-0 rounded-full bg-primary">
          <span className="sr-only">
            <Trans>Non lue</Trans>
          </span>
        </span>
      )}
    </button>
  );
}
