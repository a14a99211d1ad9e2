import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';

import { BRAND_NAME } from '@/domain/brand';
import { algiersToday } from '@/domain/dates';

const linkClassName =
  'rounded hover:text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring';

/** The year, the company, "all rights reserved", and the legal pages (docs/ui.md). */
export function Footer() {
  const year = algiersToday().slice(0, 4);
  const brand = BRAND_NAME;
  return (
    <footer className="border-t border-line bg-surface">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm text-fg-muted sm:flex-row sm:items-center sm:justify-between sm:px-6 md:px-8">
        <p>
          <Trans>
            © {year} {brand}. Tous droits réservés.
          </Trans>
        </p>
        <ul className="flex flex-wrap gap-x-4 gap-y-2">
          <li>
            <Link to="/terms" className={linkClassName}>
              <Trans>Conditions générales</Trans>
            </Link>
          </li>
          <li>
            <Link to="/privacy-policy" className={linkClassName}>
              <Trans>Politique de confidentialité</Trans>
            </Link>
          </li>
        </ul>
      </div>
    </footer>
  );
}
