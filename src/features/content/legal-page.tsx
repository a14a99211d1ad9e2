import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';

import { formatDate } from '@/domain/dates';
import { isLocale } from '@/domain/locale';

import { LEGAL_UPDATED_AT, type LegalSection } from '@/features/content/legal';
import { TextWithReferences } from '@/ui/reference-text';

/** A legal text: title, last update, a table of contents and numbered sections. */
export function LegalPage({
  title,
  documentTitle,
  intro,
  sections,
  footer,
}: {
  title: ReactNode;
  documentTitle: string;
  intro?: ReactNode;
  sections: readonly LegalSection[];
  footer?: ReactNode;
}) {
  const { t, i18n } = useLingui();
  const updated = formatDate(LEGAL_UPDATED_AT, isLocale(i18n.locale) ? i18n.locale : 'fr');
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-6">
      <title>{documentTitle}</title>
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">{title}</h1>
        <p className="text-sm text-fg-muted">
          <Trans>Dernière mise à jour : {updated}</Trans>
        </p>
        {intro && <p className="text-fg-muted">{intro}</p>}
      </header>
      <nav aria-label={t`Sommaire`} className="rounded-xl border border-line bg-surface p-4">
        <ol className="grid list-decimal gap-1 ps-5 text-sm sm:grid-cols-2">
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="text-primary-text hover:underline">
                {i18n._(section.title)}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section, index) => (
        <section key={section.id} id={section.id} className="flex scroll-mt-20 flex-col gap-2">
          <h2 className="text-xl font-semibold">
            {index + 1}. {i18n._(section.title)}
          </h2>
          {section.paragraphs.map((paragraph, p) => (
            <p key={p} className="leading-relaxed text-fg-muted">
              <TextWithReferences text={i18n._(paragraph)} />
            </p>
          ))}
        </section>
      ))}
      {footer}
    </article>
  );
}
