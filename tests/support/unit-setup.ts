import 'fake-indexeddb/auto';
import { configure } from '@testing-library/react';

// findBy/waitFor poll until the screen shows what is awaited; their default ceiling (1 s) is
// shorter than a Dexie live query on fake-indexeddb plus React's render when other suites share
// the two cores (seen: /cars/:slug's availability). The polls end as soon as the screen is right,
// so a quiet machine waits no longer; the unit tests' own limit (5 s) stays above it.
configure({ asyncUtilTimeout: 3_000 });
