/**
 * The seed's ids (supabase/seed.sql) that tests and benches name. Kept apart from fixtures.ts,
 * which needs Vitest, so that the benches (run by tsx) can read them.
 */
export const SEED = {
  cars: {
    clio5: 'ca000000-0000-4000-8000-000000000001',
    retiredClio4: 'ca000000-0000-4000-8000-000000000002',
    duster4x4: 'ca000000-0000-4000-8000-000000000010',
    peugeot2008: 'ca000000-0000-4000-8000-000000000016',
  },
  locations: {
    algerCentre: '10c00000-0000-4000-8000-000000000001',
    annabaCentre: '10c00000-0000-4000-8000-000000000004',
    tamanrassetCentre: '10c00000-0000-4000-8000-000000000009',
    alg: '10c00000-0000-4000-8000-000000000021',
  },
  users: {
    customer: 'd0000000-0000-4000-8000-000000000001',
    admin: 'd0000000-0000-4000-8000-000000000002',
  },
} as const;
