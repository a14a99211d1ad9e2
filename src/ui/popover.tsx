import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';

import { cn } from '@/ui/cn';

export type PopoverRenderProps = { close: (restoreFocus?: boolean) => void };
type Via = 'keyboard-first' | 'keyboard-last' | 'pointer';

export type PopoverProps = {
  /** The trigger button's content (may depend on whether the panel is open). */
  triggerContent: ReactNode | ((open: boolean) => ReactNode);
  /** The trigger's accessible name, when its content has no text. */
  triggerLabel?: string | ((open: boolean) => string);
  triggerClassName?: string;
  triggerTestId?: string;
  children: (props: PopoverRenderProps) => ReactNode;
  /** Which edge of the trigger the panel lines up with (logical: mirrors in Arabic). */
  align?: 'start' | 'end';
  /** Opens below the trigger (default) or above it (for buttons at the bottom of the screen). */
  placement?: 'bottom' | 'top';
  /** `menu` for a list of actions (see DropdownMenu), `dialog` for a panel of content. */
  kind?: 'menu' | 'dialog';
  panelClassName?: string;
  panelLabel?: string;
  onOpenChange?: (open: boolean) => void;
  /** Called after opening with the panel, e.g. to focus its first item. */
  onOpened?: (panel: HTMLElement, via: Via) => void;
};

/**
 * A panel anchored to a button (the header's dropdowns, the contact card). Esc and a click
 * outside close it; Esc gives focus back to the button. Minimum width 160 px, 200 ms animation
 * (docs/product.md §9).
 */
export function Popover({
  triggerContent,
  triggerLabel,
  triggerClassName,
  triggerTestId,
  children,
  align = 'end',
  placement = 'bottom',
  kind = 'dialog',
  panelClassName,
  panelLabel,
  onOpenChange,
  onOpened,
}: PopoverProps) {
  const [open, setOpen] = useState(false);
  const [via, setVia] = useState<Via>('pointer');
  // State, not a ref: `close` is handed to the panel's content during render.
  const [trigger, setTrigger] = useState<HTMLButtonElement | null>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const panelId = useId();

  const setOpenState = useCallback(
    (next: boolean) => {
      setOpen(next);
      onOpenChange?.(next);
    },
    [onOpenChange],
  );

  const close = useCallback(
    (restoreFocus = true) => {
      setOpenState(false);
      if (restoreFocus) trigger?.focus();
    },
    [setOpenState, trigger],
  );

  useEffect(() => {
    if (!open) return;
    if (panelRef.current) onOpened?.(panelRef.current, via);
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        close(true);
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, via, close, onOpened]);

  const label = typeof triggerLabel === 'function' ? triggerLabel(open) : triggerLabel;
  return (
    <div
      ref={rootRef}
      className="relative"
      onBlur={(event) => {
        // Tabbing out of the whole widget closes it.
        const next = event.relatedTarget as Node | null;
        if (open && next && !rootRef.current?.contains(next)) close(false);
      }}
    >
      <button
        ref={setTrigger}
        type="button"
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-controls={panelId}
        aria-haspopup={kind === 'menu' ? 'menu' : 'dialog'}
        data-testid={triggerTestId}
        className={triggerClassName}
        onClick={() => {
          setVia('pointer');
          setOpenState(!open);
        }}
        onKeyDown={(event) => {
          if (kind !== 'menu' || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return;
          event.preventDefault();
          const next: Via = event.key === 'ArrowDown' ? 'keyboard-first' : 'keyboard-last';
          if (open && panelRef.current) onOpened?.(panelRef.current, next);
          setVia(next);
          setOpenState(true);
        }}
      >
        {typeof triggerContent === 'function' ? triggerContent(open) : triggerContent}
      </button>
      <div
        ref={panelRef}
        id={panelId}
        hidden={!open}
        aria-label={panelLabel}
        role={kind === 'menu' ? 'menu' : 'dialog'}
        className={cn(
          'kiraa-pop absolute z-40 max-w-[calc(100vw-1rem)] min-w-[min(10rem,calc(100vw-1rem))] rounded-xl border border-line bg-surface p-1.5 text-fg shadow-xl',
          placement === 'bottom' ? 'top-full mt-2' : 'bottom-full mb-3',
          align === 'end' ? 'end-0' : 'start-0',
          panelClassName,
        )}
      >
        {open && children({ close })}
      </div>
    </div>
  );
}
