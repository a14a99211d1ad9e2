import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router-dom';

import { privacySections } from '@/features/content/legal';
import { LegalPage } from '@/features/content/legal-page';

/** /privacy-policy */
export default function PrivacyPage() {
  const { t } = useLingui();
  return (
    <LegalPage
      title={<Trans>Politique de confidentialité</Trans>}
      documentTitle={t`Politique de confidentialité · Kiraa`}
      sections={privacySections}
      footer={
        <p className="text-sm">
          <Link to="/terms" className="text-primary-text underline">
            <Trans>Lire les conditions générales de location</Trans>
          </Link>
        </p>
      }
    />
  );
}
