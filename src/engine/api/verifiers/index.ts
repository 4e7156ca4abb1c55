import type { TypedCheck } from '../../checks/contract.js';
import { batch } from './batch.js';
import { authRequired, wrongMethod } from './method-auth.js';
import { pagingDefault, pagingLimit, pagingWalk } from './paging.js';
import { sequence } from './sequence.js';
import { schema, served } from './served.js';

/** The reserved namespace of the engine's API verifiers: cases call them as `api.<name>`. */
export const API_NAMESPACE = 'api';

/**
 * The generic verifiers of a suite's API table (`api.yaml`), by name. Each takes
 * `with: { operation | resource, requirement? }` and judges whatever the case lists.
 */
export const API_CHECKS: Readonly<Record<string, TypedCheck>> = Object.freeze({
  served,
  schema,
  wrongMethod,
  authRequired,
  pagingDefault,
  pagingLimit,
  pagingWalk,
  batch,
  sequence,
});
