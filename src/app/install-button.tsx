import { Trans, useLingui } from '@lingui/react/macro';

import { promptInstall, useInstallState } from '@/infra/pwa';
import { Button } from '@/ui/button';
import { DownloadIcon } from '@/ui/icons';

/** "Install the app", shown only while the browser offers to install it. */
export function InstallButton() {
  const { t } = useLingui();
  const { canInstall, installed } = useInstallState();
  if (!canInstall || installed) return null;
  return (
    <Button
      variant="secondary"
      size="sm"
      data-testid="install-button"
      title={t`Installer Kiraa sur cet appareil`}
      onClick={() => void promptInstall()}
    >
      <DownloadIcon size={18} />
      <span className="hidden sm:inline">
        <Trans>Installer</Trans>
      </span>
      <span className="sr-only sm:hidden">
        <Trans>Installer l’application</Trans>
      </span>
    </Button>
  );
}
