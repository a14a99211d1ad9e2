import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router-dom';

import { termsSections } from '@/features/content/legal';
import { LegalPage } from '@/features/content/legal-page';

/** /terms */
export default function TermsPage() {
  const { t } = useLingui();
  return (
    <LegalPage
      title={<Trans>Conditions générales de location</Trans>}
      documentTitle={t`Conditions générales · Kiraa`}
      sections={termsSections}
      footer={
        <p className="text-sm">
          <Link to="/privacy-policy" className="text-primary-text underline">
            <Trans>Lire la politique de confidentialité</Trans>
          </Link>
        </p>
      }
    />
  );
}
