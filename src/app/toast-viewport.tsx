import { useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';

import {
  dismissToast,
  useToasts,
  type Toast,
  type ToastKind,
  type ToastPlacement,
} from '@/infra/toast';
import { cn } from '@/ui/cn';
import { CheckIcon, CloseIcon, ErrorIcon, InfoIcon, WarningIcon } from '@/ui/icons';
import { TextWithReferences } from '@/ui/reference-text';

const kindStyles: Record<ToastKind, string> = {
  info: 'border-line',
  success: 'border-success/60',
  warning: 'border-warning/70',
  error: 'border-danger/60',
};

const kindIcons: Record<ToastKind, React.ReactNode> = {
  info: <InfoIcon className="text-primary-text" />,
  success: <CheckIcon className="text-success" />,
  warning: <WarningIcon className="text-warning" />,
  error: <ErrorIcon className="text-danger" />,
};

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useLingui();
  const [paused, setPaused] = useState(false);
  const remaining = useRef(toast.duration);
  const startedAt = useRef(0);

  // A toast that was replaced (same id) starts its time again.
  useEffect(() => {
    remaining.current = toast.duration;
  }, [toast.createdAt, toast.duration]);

  // The countdown stops while the pointer is over the toast or focus is inside it (WCAG 2.2.1).
  useEffect(() => {
    if (paused || !Number.isFinite(remaining.current)) return;
    startedAt.current = Date.now();
    const timer = window.setTimeout(() => dismissToast(toast.id), remaining.current);
    return () => {
      window.clearTimeout(timer);
      remaining.current -= Date.now() - startedAt.current;
    };
  }, [paused, toast.id, toast.createdAt]);

  // The list item keeps its role (axe "list"/"listitem": an <ol> holds only <li>s that are list
  // items); the live role is on the toast inside it.
  return (
    <li className="pointer-events-auto flex w-full">
      <div
        role={toast.kind === 'error' ? 'alert' : 'status'}
        aria-atomic="true"
        data-testid="toast"
        data-kind={toast.kind}
        className={cn(
          'kiraa-toast pointer-events-auto flex w-full items-start gap-3 rounded-xl border bg-surface p-3 text-sm text-fg shadow-lg',
          kindStyles[toast.kind],
        )}
        onPointerEnter={() => setPaused(true)}
        onPointerLeave={() => setPaused(false)}
        onFocus={() => setPaused(true)}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setPaused(false);
        }}
      >
        <span className="mt-0.5">{kindIcons[toast.kind]}</span>
        <p className="flex-1 pt-0.5 leading-snug">
          <TextWithReferences text={toast.message} />
        </p>
        {toast.action && (
          <button
            type="button"
            className="rounded-md px-2 py-1 font-semibold text-primary-text hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
            onClick={() => {
              toast.action?.onAction();
              dismissToast(toast.id);
            }}
          >
            {toast.action.label}
          </button>
        )}
        <button
          type="button"
          aria-label={t`Fermer la notification`}
          className="-m-1 rounded-md p-1 text-fg-muted hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
          onClick={() => dismissToast(toast.id)}
        >
          <CloseIcon size={16} />
        </button>
      </div>
    </li>
  );
}

function Region({ placement, toasts }: { placement: ToastPlacement; toasts: readonly Toast[] }) {
  const { t } = useLingui();
  return (
    <section
      aria-label={t`Notifications`}
      aria-live="polite"
      aria-relevant="additions text"
      data-placement={placement}
      className={cn(
        'pointer-events-none fixed inset-x-0 z-[60] flex justify-center px-4',
        placement === 'top-center' ? 'top-4' : 'bottom-4 pb-[env(safe-area-inset-bottom)]',
      )}
    >
      <ol className="flex w-full max-w-md flex-col gap-2">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </ol>
    </section>
  );
}

/** Renders the toasts of src/infra/toast.ts; mounted once by the app shell. */
export function ToastViewport() {
  const toasts = useToasts();
  return (
    <>
      <Region placement="top-center" toasts={toasts.filter((t) => t.placement === 'top-center')} />
      <Region
        placement="bottom-center"
        toasts={toasts.filter((t) => t.placement === 'bottom-center')}
      />
    </>
  );
}
