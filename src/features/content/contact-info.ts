import { msg } from '@lingui/core/macro';

/** The agency's email address: written requests, invoices and personal-data requests. */
export const CONTACT_EMAIL = 'contact@kiraa.dz';

export const agencies = [
  {
    key: 'algiers',
    name: msg`Alger — siège`,
    address: msg`12, rue Didouche-Mourad, Alger-Centre, 16000 Alger`,
  },
  { key: 'oran', name: msg`Oran`, address: msg`5, boulevard de la Soummam, 31000 Oran` },
  {
    key: 'constantine',
    name: msg`Constantine`,
    address: msg`8, rue Abane-Ramdane, 25000 Constantine`,
  },
] as const;
