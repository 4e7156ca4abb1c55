#!/usr/bin/env node
/**
 * The reference store as a process speaking the `exec:` JSON-lines protocol, for a target
 * profile's `database: { exec: "node dist/reference/collation/store/main.js" }`; an example of
 * the protocol for anyone wiring their own database in. `--fault <name>` (repeatable) plants a
 * deviation from reference/collation/store/faults.ts.
 */
import { makeCollator, parseCollation, prepareComparator } from '../comparator/index.js';
import { SpecgateError } from '../../../src/errors.js';
import { STORE_FAULT_NAMES, isStoreFaultName, type StoreFaults } from './faults.js';
import { serveJsonLines } from './json-lines.js';
import { createStore } from './store.js';

const faults: StoreFaults = {};
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const name = args[i] === '--fault' ? args[++i] : undefined;
  if (name === undefined || !isStoreFaultName(name)) {
    process.stderr.write(`${new SpecgateError('SG_USAGE', `usage: main.js [--fault <name>]...; faults: ${STORE_FAULT_NAMES.join(', ')}`).message}\n`);
    process.exit(2);
  }
  faults[name] = true;
}
await prepareComparator();
await serveJsonLines(createStore({ parseCollation, makeCollator, faults }), process.stdin, process.stdout);
