/** What the pickup and return screens call the angles, zones, documents and deposit states. */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

import type { HandoverAngle, HandoverZone, IdDocumentType } from '@/domain/handover';

export const angleLabels: Record<HandoverAngle, MessageDescriptor> = {
  front: msg`Avant`,
  back: msg`Arrière`,
  left: msg`Côté gauche`,
  right: msg`Côté droit`,
  front_left: msg`Coin avant gauche`,
  front_right: msg`Coin avant droit`,
  rear_left: msg`Coin arrière gauche`,
  rear_right: msg`Coin arrière droit`,
};

export const zoneLabels: Record<HandoverZone, MessageDescriptor> = {
  front: msg`Avant`,
  back: msg`Arrière`,
  left: msg`Côté gauche`,
  right: msg`Côté droit`,
  roof: msg`Toit`,
  front_left: msg`Coin avant gauche`,
  front_right: msg`Coin avant droit`,
  rear_left: msg`Coin arrière gauche`,
  rear_right: msg`Coin arrière droit`,
  interior: msg`Intérieur`,
};

export const documentLabels: Record<IdDocumentType, MessageDescriptor> = {
  national_id: msg`Carte nationale d’identité`,
  passport: msg`Passeport`,
  driving_licence: msg`Permis de conduire`,
};

export const depositLabels: Record<'held' | 'returned' | 'kept', MessageDescriptor> = {
  held: msg`Caution reçue, conservée par l’agence`,
  returned: msg`Caution rendue`,
  kept: msg`Caution retenue`,
};
