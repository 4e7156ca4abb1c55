import type { PassiveRule } from '../../../src/engine/suite-module.js';
import { clientRequests } from './client-requests.js';

/** The merchant suite's rules over a whole recording (`--target har:`), by name: each a case `passive:<name>`. */
export const MERCHANT_PASSIVE_RULES: Readonly<Record<string, PassiveRule>> = {
  'client-requests': clientRequests,
};
