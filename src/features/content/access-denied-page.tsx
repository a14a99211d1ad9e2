import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router-dom';

import { buttonClass } from '@/ui/button';
import { LockIcon } from '@/ui/icons';

/** Shown when a signed-in user lacks the authority a page needs (docs/product.md §6). */
export default function AccessDeniedPage() {
  const { t } = useLingui();
  return (
    <section className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center">
      <title>{t`Accès refusé · Kiraa`}</title>
      <span className="flex size-16 items-center justify-center rounded-full bg-muted text-danger">
        <LockIcon size={32} />
      </span>
      <h1 className="text-2xl font-bold">
        <Trans>Accès refusé</Trans>
      </h1>
      <p className="text-fg-muted">
        <Trans>
          Votre compte n’a pas l’autorisation d’ouvrir cette page. Si vous pensez qu’il s’agit d’une
          erreur, contactez notre support.
        </Trans>
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        <Link to="/home" className={buttonClass()}>
          <Trans>Retour à l’accueil</Trans>
        </Link>
        <Link to="/contacts" className={buttonClass({ variant: 'secondary' })}>
          <Trans>Contacter le support</Trans>
        </Link>
      </div>
    </section>
  );
}
