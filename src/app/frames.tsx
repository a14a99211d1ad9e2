import { useSearchParams } from 'react-router-dom';

import { PageSpinner } from '@/ui/spinner';
import { WizardFrame } from '@/ui/wizard-frame';

/**
 * Frames the shell draws while a screen's code loads (`page(…, { frame })`, src/app/routes.tsx):
 * the screen's own first markup, from the shell's code and words only.
 */

/** /cars/book: the wizard's heading, and the spinner the wizard shows until its data is read. */
export function WizardLoadingFrame() {
  const [params] = useSearchParams();
  return (
    <WizardFrame edit={!!params.get('edit')}>
      <PageSpinner />
    </WizardFrame>
  );
}
