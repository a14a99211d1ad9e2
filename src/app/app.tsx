import { Trans } from '@lingui/react/macro';

import { BRAND_NAME } from '@/lib/brand';

export function App() {
  return (
    <main className="p-4">
      <h1 className="text-2xl font-bold">{BRAND_NAME}</h1>
      <p>
        <Trans>Location de voitures en Algérie</Trans>
      </p>
    </main>
  );
}
