import type { PassiveRule, PassiveRuleFinding } from '../../../src/engine/suite-module.js';
import { bodyOf, field, verdict } from './recorded.js';

/** The monitoring API's operations (part G): those whose answers share the error object. */
const MONITORING = ['serviceDependencies', 'serviceDependency', 'ipRanges', 'listEventsV1', 'listEventsV2', 'postEvent'];
const TOO_MANY_REQUESTS = 429;

/**
 * Too many requests answers of the monitoring API (G, Errors) have the shared error body: an
 * object whose `errors` is an array of strings. Judged on the 429s a recording holds, with
 * their body.
 */
export const errorBody: PassiveRule = {
  description: 'recorded Too many requests answers (429) of the monitoring API carry {errors: [string, ...]}',
  requirements: ['EVENTS-MON-ERROR-BODY'],
  judge(view) {
    const limited = MONITORING.flatMap((op) => view.byOperation.get(op) ?? []).filter((x) => x.recorded.status === TOO_MANY_REQUESTS && x.recorded.responseText !== undefined);
    const findings: PassiveRuleFinding[] = limited.flatMap((x) => {
      const errors = field(bodyOf(x), 'errors');
      if (Array.isArray(errors) && errors.every((e) => typeof e === 'string')) return [];
      return [{ message: 'the 429 answer is not the error object {errors: [string, ...]}', expected: { errors: ['<string>'] }, actual: x.recorded.responseText?.slice(0, 200), exchange: x }];
    });
    return [verdict('EVENTS-MON-ERROR-BODY', limited.length, findings, 'the recording holds no 429 answer of the monitoring API with its body')];
  },
};
