import { useLingui } from '@lingui/react/macro';
import { useId, type ReactNode } from 'react';

import { IconButton } from '@/ui/button';
import { cn } from '@/ui/cn';
import { CloseIcon } from '@/ui/icons';
import { Modal } from '@/ui/modal';

export type DialogProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** The actions row (buttons), laid out at the end. */
  footer?: ReactNode;
  className?: string;
  /** Use `alertdialog` for confirmations that interrupt (e.g. "cancelling cannot be undone"). */
  role?: 'dialog' | 'alertdialog';
  initialFocus?: React.RefObject<HTMLElement | null>;
};

/** A centred modal dialog with a title, an optional description, content and actions. */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  className,
  role = 'dialog',
  initialFocus,
}: DialogProps) {
  const { t } = useLingui();
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Modal
      open={open}
      onClose={onClose}
      labelledBy={titleId}
      describedBy={description ? descriptionId : undefined}
      initialFocus={initialFocus}
      role={role}
      className={cn(
        'kiraa-dialog m-auto w-[calc(100vw-2rem)] max-w-lg rounded-xl border border-line p-0 shadow-2xl',
        className,
      )}
    >
      <div>
        <div className="flex items-start justify-between gap-3 px-5 pt-5">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <IconButton
            label={t`Fermer`}
            icon={<CloseIcon />}
            onClick={onClose}
            className="-me-2 -mt-2"
          />
        </div>
        {description && (
          <p id={descriptionId} className="px-5 pt-1 text-sm text-fg-muted">
            {description}
          </p>
        )}
        {children && <div className="px-5 pt-4">{children}</div>}
        {footer && <div className="flex flex-wrap justify-end gap-2 p-5">{footer}</div>}
        {!footer && <div className="pb-5" />}
      </div>
    </Modal>
  );
}
