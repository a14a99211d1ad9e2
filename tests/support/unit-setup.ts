import 'fake-indexeddb/auto';
import { configure } from '@testing-library/react';

// A `findBy…`/`waitFor` waits for IndexedDB (fake-indexeddb), live queries and React to settle.
// Testing Library gives up after 1 s by default: on a 2-core machine running other suites beside
// this one (load 20–30), a live query's first answer alone has taken longer, and two pages failed
// in CI-like runs for that reason only. A wait still fails when what it waits for never comes.
configure({ asyncUtilTimeout: 5_000 });
