import { fromRoot } from '../../../src/paths.js';
import type { ReferenceTarget } from '../../../src/engine/suite-module.js';
import { makeCollator, parseCollation, prepareComparator } from '../comparator/index.js';
import { embeddedDocuments } from './embedded.js';
import { createStore } from './store.js';

/** The reference store, in the run's own process: a fresh, empty store for every run. */
export const collationReferenceTarget: ReferenceTarget = {
  async start({ standalone }) {
    await prepareComparator();
    const store = createStore({ parseCollation, makeCollator });
    return {
      description: 'the collation reference store (in memory)',
      vars: {},
      documents: embeddedDocuments(store, 'collation reference store'),
      // under `specgate serve`: the store lives in this process's memory, so a run elsewhere
      // starts its own copy, speaking the JSON-lines protocol of `database: { exec: ... }`
      ...(standalone ? { served: { database: { exec: [process.execPath, fromRoot('dist', 'reference', 'collation', 'store', 'main.js')] } } } : {}),
      async stop() {},
    };
  },
};
