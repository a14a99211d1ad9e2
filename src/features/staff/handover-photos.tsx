import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';

import { bookingErrorMessage } from '@/domain/booking-errors';
import { handoverAngles, type HandoverAngle } from '@/domain/handover';
import { angleLabels } from '@/ui/handover-labels';

/** One optional photo per checklist angle (the phone's camera first, where it has one). */
export function PhotoInputs({
  photos,
  errors,
  onPick,
}: {
  photos: Partial<Record<HandoverAngle, unknown>>;
  errors: Partial<Record<HandoverAngle, string>>;
  onPick: (angle: HandoverAngle, file: File | undefined) => void;
}) {
  const { i18n } = useLingui();
  const id = useId();
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">
        <Trans>Photos (chacune facultative)</Trans>
      </legend>
      <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {handoverAngles.map((angle) => (
          <li key={angle} className="flex flex-col gap-1">
            <label htmlFor={`${id}-photo-${angle}`} className="text-sm">
              {i18n._(angleLabels[angle])}
              {!!photos[angle] && (
                <span className="ms-2 text-success" data-testid="photo-ready">
                  <Trans>✓ prête</Trans>
                </span>
              )}
            </label>
            <input
              id={`${id}-photo-${angle}`}
              type="file"
              accept="image/jpeg,image/png,image/webp,image/heic,image/heif"
              capture="environment"
              data-angle={angle}
              className="text-sm file:me-2 file:rounded-lg file:border file:border-line file:bg-muted file:px-2 file:py-1"
              onChange={(e) => onPick(angle, e.target.files?.[0])}
            />
            {errors[angle] && (
              <p role="alert" className="text-sm text-danger">
                {i18n._(bookingErrorMessage(errors[angle]))}
              </p>
            )}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
