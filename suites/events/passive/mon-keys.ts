import type { PassiveRule, PassiveRuleFinding } from '../../../src/engine/suite-module.js';
import { exchangesOf, sentHeader, verdict } from './recorded.js';

/** The monitoring operations that refuse a request without both keys (G, Authentication 1): the dependency endpoints and both event lists. */
const KEYED = ['serviceDependencies', 'serviceDependency', 'listEventsV1', 'listEventsV2'];

/**
 * Requests to the monitoring API's keyed endpoints that lack MON-API-KEY, or
 * MON-APPLICATION-KEY, get no dependencies and no events: a 2xx answer to one fails.
 */
export const monKeys: PassiveRule = {
  description: 'recorded monitoring requests without MON-API-KEY or MON-APPLICATION-KEY: none answered 2xx',
  requirements: ['EVENTS-MON-API-KEY-REQUIRED', 'EVENTS-MON-APP-KEY-REQUIRED'],
  judge(view) {
    const requests = exchangesOf(view, KEYED);
    const without = (header: string, requirement: string) => {
      const lacking = requests.filter((x) => sentHeader(x, header) === undefined);
      const findings: PassiveRuleFinding[] = lacking
        .filter((x) => x.recorded.status >= 200 && x.recorded.status <= 299)
        .map((x) => ({ message: `answered ${x.recorded.status} to a request without ${header}`, expected: 'a 4xx with the error object', actual: x.recorded.status, exchange: x }));
      return verdict(requirement, lacking.length, findings, `no dependency or event list request without ${header} was recorded`);
    };
    return [without('MON-API-KEY', 'EVENTS-MON-API-KEY-REQUIRED'), without('MON-APPLICATION-KEY', 'EVENTS-MON-APP-KEY-REQUIRED')];
  },
};
