import { useRef, type ReactNode } from 'react';

import { cn } from '@/ui/cn';

export type TabItem<T extends string> = { id: T; label: ReactNode; count?: number };

/** The ids tying a tab to its panel: spread `tabPanelProps(prefix, id)` on the panel. */
export function tabPanelProps(prefix: string, id: string) {
  return {
    id: `${prefix}-panel-${id}`,
    role: 'tabpanel',
    'aria-labelledby': `${prefix}-tab-${id}`,
    tabIndex: 0,
  } as const;
}

/**
 * A WAI-ARIA tab list (automatic activation): the arrow keys move between tabs and select them
 * (mirrored in right-to-left layouts), Home and End jump; only the selected tab is in the Tab
 * order. The caller renders the selected panel with `tabPanelProps`.
 */
export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
  idPrefix,
  className,
}: {
  tabs: readonly TabItem<T>[];
  value: T;
  onChange: (id: T) => void;
  /** The accessible name of the tab list. */
  label: string;
  idPrefix: string;
  className?: string;
}) {
  const listRef = useRef<HTMLDivElement>(null);

  function move(from: number, step: number) {
    const index = (from + step + tabs.length) % tabs.length;
    const next = tabs[index];
    if (!next) return;
    onChange(next.id);
    listRef.current?.querySelectorAll<HTMLElement>('[role="tab"]')[index]?.focus();
  }

  return (
    <div
      ref={listRef}
      role="tablist"
      aria-label={label}
      className={cn('flex gap-1 border-b border-line', className)}
    >
      {tabs.map((tab, index) => {
        const selected = tab.id === value;
        return (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${tab.id}`}
            aria-selected={selected}
            aria-controls={`${idPrefix}-panel-${tab.id}`}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(tab.id)}
            onKeyDown={(event) => {
              const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
              const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
              const backward = rtl ? 'ArrowRight' : 'ArrowLeft';
              if (event.key === forward) move(index, 1);
              else if (event.key === backward) move(index, -1);
              else if (event.key === 'Home') move(0, 0);
              else if (event.key === 'End') move(tabs.length - 1, 0);
              else return;
              event.preventDefault();
            }}
            className={cn(
              '-mb-px inline-flex h-11 items-center gap-2 border-b-2 px-4 text-sm font-medium',
              'focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-ring',
              selected
                ? 'border-primary text-primary-text'
                : 'border-transparent text-fg-muted hover:text-fg',
            )}
          >
            {tab.label}
            {tab.count !== undefined && (
              <span
                className={cn(
                  'min-w-6 rounded-full px-1.5 text-xs tabular-nums',
                  selected ? 'bg-primary-soft' : 'bg-muted',
                )}
              >
                {tab.count}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
