import { useCallback, type ReactNode } from 'react';

import { cn } from '@/ui/cn';
import { CheckIcon } from '@/ui/icons';
import { Popover, type PopoverProps } from '@/ui/popover';

function items(panel: HTMLElement): HTMLElement[] {
  return [...panel.querySelectorAll<HTMLElement>('[role^="menuitem"]:not([aria-disabled="true"])')];
}

function focusItem(panel: HTMLElement, index: number) {
  const list = items(panel);
  if (!list.length) return;
  const i = ((index % list.length) + list.length) % list.length;
  list[i]?.focus();
}

export type DropdownMenuProps = Pick<
  PopoverProps,
  | 'triggerContent'
  | 'triggerLabel'
  | 'triggerClassName'
  | 'triggerTestId'
  | 'align'
  | 'panelClassName'
> & {
  /** The accessible name of the menu. */
  label: string;
  children: (props: { close: (restoreFocus?: boolean) => void }) => ReactNode;
};

/**
 * A menu button (WAI-ARIA menu pattern): ArrowDown/ArrowUp open it and move between items,
 * Home/End jump, Esc closes it and focus returns to the button; choosing an item closes it.
 */
export function DropdownMenu({ label, children, ...popover }: DropdownMenuProps) {
  const onOpened = useCallback(
    (panel: HTMLElement, via: 'keyboard-first' | 'keyboard-last' | 'pointer') => {
      if (via === 'keyboard-last') focusItem(panel, -1);
      else {
        const checked = panel.querySelector<HTMLElement>('[aria-checked="true"]');
        if (checked) checked.focus();
        else focusItem(panel, 0);
      }
    },
    [],
  );
  return (
    <Popover kind="menu" panelLabel={label} onOpened={onOpened} {...popover}>
      {({ close }) => (
        // The menu's own keyboard model: arrows move between items.
        // eslint-disable-next-line jsx-a11y/no-static-element-interactions
        <div
          onKeyDown={(event) => {
            const panel = event.currentTarget;
            const list = items(panel);
            const index = list.indexOf(document.activeElement as HTMLElement);
            if (event.key === 'ArrowDown') focusItem(panel, index + 1);
            else if (event.key === 'ArrowUp') focusItem(panel, index - 1);
            else if (event.key === 'Home') focusItem(panel, 0);
            else if (event.key === 'End') focusItem(panel, -1);
            else if (event.key === 'Tab') close(false);
            else return;
            if (event.key !== 'Tab') event.preventDefault();
          }}
        >
          {children({ close })}
        </div>
      )}
    </Popover>
  );
}

export type MenuItemProps = {
  onSelect: () => void;
  children: ReactNode;
  icon?: ReactNode;
  /** For a choice among options (e.g. the language): shows a check and sets aria-checked. */
  checked?: boolean;
  lang?: string;
  className?: string;
};

/** An item of a DropdownMenu; `checked` makes it a radio item. */
export function MenuItem({ onSelect, children, icon, checked, lang, className }: MenuItemProps) {
  const radio = checked !== undefined;
  return (
    <button
      type="button"
      role={radio ? 'menuitemradio' : 'menuitem'}
      aria-checked={radio ? checked : undefined}
      tabIndex={-1}
      lang={lang}
      onClick={onSelect}
      className={cn(
        'flex w-full items-center gap-2 rounded-lg px-3 py-2 text-start text-sm',
        'hover:bg-muted focus-visible:bg-muted focus-visible:outline-2 focus-visible:outline-ring',
        checked && 'font-semibold text-primary-text',
        className,
      )}
    >
      {icon}
      <span className="flex-1">{children}</span>
      {radio && checked && <CheckIcon size={16} />}
    </button>
  );
}
