import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';

import { buttonClass } from '@/ui/button';

// Interim /home until the catalogue's home page lands (its line replaces this one in routes.tsx).
export default function InterimHome() {
  return (
    <section className="flex flex-col gap-4 py-10">
      <h1 className="text-3xl font-bold">
        <Trans>Location de voitures en Algérie</Trans>
      </h1>
      <div>
        <Link to="/qa" className={buttonClass()}>
          <Trans>Questions fréquentes</Trans>
        </Link>
      </div>
    </section>
  );
}
