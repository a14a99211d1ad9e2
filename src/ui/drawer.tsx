import { useLingui } from '@lingui/react/macro';
import { useId, type ReactNode } from 'react';

import { IconButton } from '@/ui/button';
import { cn } from '@/ui/cn';
import { CloseIcon } from '@/ui/icons';
import { Modal } from '@/ui/modal';

/** The navigation drawer's width (docs/product.md §9). */
export const MENU_DRAWER_WIDTH = 330;

export type DrawerProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  /** Which edge it slides from; `start` is the left, or the right in right-to-left layouts. */
  side?: 'start' | 'end';
  width?: number;
  children: ReactNode;
  className?: string;
  testId?: string;
};

/** A side panel over the page: modal, focus-trapped, closed by Esc, its button or the backdrop. */
export function Drawer({
  open,
  onClose,
  title,
  side = 'start',
  width = MENU_DRAWER_WIDTH,
  children,
  className,
  testId,
}: DrawerProps) {
  const { t } = useLingui();
  const titleId = useId();
  return (
    <Modal
      open={open}
      onClose={onClose}
      labelledBy={titleId}
      style={{ width: `min(${width}px, 100vw)` }}
      className={cn(
        'kiraa-drawer m-0 box-border h-dvh max-h-none max-w-[100vw] border-line shadow-2xl',
        side === 'start' ? 'kiraa-drawer-start border-e' : 'kiraa-drawer-end border-s',
        className,
      )}
    >
      <div data-testid={testId} className="flex h-full flex-col">
        <div className="flex h-16 items-center justify-between gap-2 border-b border-line px-4">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <IconButton label={t`Fermer`} icon={<CloseIcon />} onClick={onClose} />
        </div>
        <div className="flex-1 overflow-y-auto p-3">{children}</div>
      </div>
    </Modal>
  );
}
