import { loadApiTable } from '../../../src/engine/api/load-table.js';
import type { ApiTable } from '../../../src/engine/api/table.js';
import type { SpecgateError } from '../../../src/errors.js';
import { fromRoot } from '../../../src/paths.js';
import { registryFor } from '../../engine/api/example-table.js';

/** The merchant suite's API table (suites/merchant/api.yaml) as the engine loads it. */
export function loadedMerchantTable(): ApiTable {
  const dir = fromRoot('suites/merchant');
  const errors: SpecgateError[] = [];
  const table = loadApiTable({ name: 'merchant', dir }, registryFor('merchant', dir), (f) => f, errors);
  if (!table || errors.length) throw errors[0] ?? new Error('no table');
  return table;
}
