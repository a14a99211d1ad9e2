import { useEffect, useRef, type ReactNode } from 'react';

import { cn } from '@/ui/cn';
import { trapTabKey } from '@/ui/focus';

/** How long the closing animation of drawers and dialogs lasts (docs/product.md §9: 300 ms). */
export const CLOSE_ANIMATION_MS = 300;

function reducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

export type ModalProps = {
  open: boolean;
  onClose: () => void;
  /** Accessible name: the id of the visible title inside. */
  labelledBy?: string;
  /** Accessible name when there is no visible title. */
  label?: string;
  describedBy?: string;
  className?: string;
  children: ReactNode;
  /** The element to focus when it opens (default: the first focusable one). */
  initialFocus?: React.RefObject<HTMLElement | null>;
  /** `alertdialog` for confirmations that interrupt the user. */
  role?: 'dialog' | 'alertdialog';
  style?: React.CSSProperties;
};

/**
 * A modal surface on the native <dialog> element: the rest of the page is inert while it is
 * open, focus stays inside (Tab wraps), Esc and a click on the backdrop close it, and focus
 * returns to the element that opened it. Drawer and Dialog are styled versions of it.
 */
export function Modal({
  open,
  onClose,
  labelledBy,
  label,
  describedBy,
  className,
  children,
  initialFocus,
  role,
  style,
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocus.current = document.activeElement as HTMLElement | null;
      delete dialog.dataset.closing;
      dialog.showModal();
      (initialFocus?.current ?? null)?.focus();
      return;
    }
    if (!open && dialog.open) {
      const finish = () => {
        delete dialog.dataset.closing;
        dialog.close();
        returnFocus.current?.focus?.();
        returnFocus.current = null;
      };
      if (reducedMotion()) {
        finish();
        return;
      }
      dialog.dataset.closing = '';
      const timer = window.setTimeout(finish, CLOSE_ANIMATION_MS);
      return () => {
        window.clearTimeout(timer);
        if (dialog.dataset.closing !== undefined) finish();
      };
    }
  }, [open, initialFocus]);

  // Unmounting while open (e.g. a route change): give focus back.
  useEffect(
    () => () => {
      if (returnFocus.current?.isConnected) returnFocus.current.focus();
    },
    [],
  );

  return (
    // The dialog element handles Esc natively (the cancel event); the click handler only
    // catches clicks on its backdrop, which has no keyboard equivalent to add.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={ref}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={labelledBy}
      aria-label={label}
      aria-describedby={describedBy}
      className={cn('kiraa-modal bg-surface text-fg', className)}
      style={style}
      onCancel={(event) => {
        event.preventDefault();
        onCloseRef.current();
      }}
      onKeyDown={(event) => {
        if (ref.current) trapTabKey(event, ref.current);
      }}
      onClick={(event) => {
        const dialog = ref.current;
        if (!dialog || event.target !== dialog) return;
        const r = dialog.getBoundingClientRect();
        const inside =
          event.clientX >= r.left &&
          event.clientX <= r.right &&
          event.clientY >= r.top &&
          event.clientY <= r.bottom;
        if (!inside) onCloseRef.current();
      }}
    >
      {children}
    </dialog>
  );
}
