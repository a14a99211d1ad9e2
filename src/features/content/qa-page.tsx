import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';

import {
  faqCategoryKeys,
  faqCategoryLabels,
  faqs,
  filterFaqs,
  type FaqCategoryKey,
} from '@/features/content/faq';
import { cn } from '@/ui/cn';
import { ChevronDownIcon, SearchIcon } from '@/ui/icons';
import { TextWithReferences } from '@/ui/reference-text';

function isCategory(value: string | null): value is FaqCategoryKey {
  return (faqCategoryKeys as readonly string[]).includes(value ?? '');
}

/** /qa: the FAQ with a search box and the six categories (state kept in the URL). */
export default function QaPage() {
  const { t, i18n } = useLingui();
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const rawCategory = params.get('category');
  const category: FaqCategoryKey = isCategory(rawCategory) ? rawCategory : 'all';
  const searchId = useId();

  const translated = useMemo(
    () =>
      faqs.map((faq) => ({
        ...faq,
        question: i18n._(faq.question),
        answer: i18n._(faq.answer),
      })),
    [i18n],
  );
  const results = filterFaqs(translated, query, category);
  const count = results.length;

  const update = (next: { q?: string; category?: FaqCategoryKey }) => {
    const merged = new URLSearchParams(params);
    if (next.q !== undefined) {
      if (next.q) merged.set('q', next.q);
      else merged.delete('q');
    }
    if (next.category !== undefined) {
      if (next.category === 'all') merged.delete('category');
      else merged.set('category', next.category);
    }
    setParams(merged, { replace: true, preventScrollReset: true });
  };

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <title>{t`Questions fréquentes · Kiraa`}</title>
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">
          <Trans>Questions fréquentes</Trans>
        </h1>
        <p className="text-fg-muted">
          <Trans>
            Tout savoir sur la location d’une voiture avec Kiraa : réservation, paiement, prise en
            charge et restitution.
          </Trans>
        </p>
      </header>

      <search className="flex flex-col gap-4">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={searchId} className="text-sm font-medium">
            <Trans>Rechercher une question</Trans>
          </label>
          <div className="relative">
            <SearchIcon className="pointer-events-none absolute start-3 top-1/2 -translate-y-1/2 text-fg-muted" />
            <input
              id={searchId}
              type="search"
              value={query}
              onChange={(event) => update({ q: event.target.value })}
              placeholder={t`Ex. : caution, aéroport, annulation`}
              className="h-11 w-full rounded-lg border border-line bg-surface ps-10 pe-3 text-fg placeholder:text-fg-muted focus-visible:outline-2 focus-visible:outline-ring"
              autoComplete="off"
              enterKeyHint="search"
            />
          </div>
        </div>
        <div role="group" aria-label={t`Catégories`} className="flex flex-wrap gap-2">
          {faqCategoryKeys.map((key) => (
            <button
              key={key}
              type="button"
              aria-pressed={category === key}
              onClick={() => update({ category: key })}
              className={cn(
                'h-9 rounded-full border px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                category === key
                  ? 'border-primary bg-primary text-on-primary'
                  : 'border-line bg-surface text-fg hover:bg-muted',
              )}
            >
              {i18n._(faqCategoryLabels[key])}
            </button>
          ))}
        </div>
      </search>

      <p role="status" className="text-sm text-fg-muted" data-testid="faq-count">
        {plural(count, { one: '# question', other: '# questions' })}
      </p>

      {count > 0 ? (
        <ul className="flex flex-col gap-3" data-testid="faq-list">
          {results.map((faq) => (
            <li key={faq.id} id={faq.id}>
              <details className="group rounded-xl border border-line bg-surface open:shadow-sm">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-xl p-4 font-semibold focus-visible:outline-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
                  <span>{faq.question}</span>
                  <ChevronDownIcon className="text-fg-muted transition-transform group-open:rotate-180" />
                </summary>
                <p className="px-4 pb-4 leading-relaxed text-fg-muted">
                  <TextWithReferences text={faq.answer} />
                </p>
              </details>
            </li>
          ))}
        </ul>
      ) : (
        <p className="rounded-xl border border-dashed border-line p-6 text-center">
          <Trans>Aucune question ne correspond à votre recherche.</Trans>{' '}
          <Link to="/contacts" className="font-medium text-primary-text underline">
            <Trans>Posez-nous la vôtre.</Trans>
          </Link>
        </p>
      )}

      <aside className="rounded-xl bg-primary-soft/60 p-5 dark:bg-primary-soft/40">
        <p className="font-semibold">
          <Trans>Vous n’avez pas trouvé votre réponse ?</Trans>
        </p>
        <p className="mt-1 text-fg-muted">
          <Trans>
            Notre équipe répond sur WhatsApp 24 h/24 et 7 j/7.{' '}
            <Link to="/contacts" className="font-medium text-primary-text underline">
              Voir nos contacts
            </Link>
          </Trans>
        </p>
      </aside>
    </div>
  );
}
