import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';

/**
 * The booking wizard's headings. In the shell's catalog (src/ui): the shell draws the wizard's
 * frame while the wizard's code is still on its way (src/app/routes.tsx, docs/performance.md).
 */
const wizardTitles = {
  book: msg`Réserver une voiture`,
  edit: msg`Modifier mes informations`,
} as const;

/**
 * The booking wizard's frame: its column and heading, with `children` under it. One markup for
 * the shell's early frame and the wizard itself, so the heading paints once and never moves.
 */
export function WizardFrame({
  edit = false,
  children,
}: {
  /** `/cars/book?edit=…`: correcting a refused booking. */
  edit?: boolean;
  children: ReactNode;
}) {
  const { i18n } = useLingui();
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-4">
      <h1 className="text-2xl font-bold">{i18n._(edit ? wizardTitles.edit : wizardTitles.book)}</h1>
      {children}
    </div>
  );
}
