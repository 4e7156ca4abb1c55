import type { PassiveRule, PassiveRuleFinding } from '../../../src/engine/suite-module.js';
import { carriesKey, isSuccess, objectOf, parsedBody, queryNames, verdict } from './recorded.js';

/**
 * Refusals a recording settles on its own (spec 001, E. Authentication 1, E4-E6): a request
 * that lacks what every request must carry is refused whatever came before it, so each such
 * recorded request is judged. What a refusal's body holds is the opted-in cases' (envelope.yaml).
 */

/** Authentication 1: every recorded request without Api-Key is refused (not 200 or 201). */
export const keyRequired: PassiveRule = {
  description: 'Every recorded request without Api-Key is refused (not 200 or 201)',
  requirements: ['AFF-API-KEY-REQUIRED'],
  judge(view) {
    const judged = view.exchanges.filter((x) => x.operation.auth && !carriesKey(x, view.table));
    const findings: PassiveRuleFinding[] = judged
      .filter((x) => isSuccess(x.recorded.status))
      .map((x) => ({ message: `answered ${x.recorded.status} to a request without Api-Key`, expected: 'a refusal (not 200 or 201)', actual: x.recorded.status, exchange: x }));
    return [verdict('AFF-API-KEY-REQUIRED', judged.length, findings, 'no request without Api-Key was recorded')];
  },
};

/** E4-E6: the operations whose fromDate and toDate are required, and the requirement of each. */
const DATED: Readonly<Record<string, string>> = { leads: 'AFF-LEADS-DATES-REQUIRED', conversions: 'AFF-CONVERSIONS-DATES-REQUIRED', income: 'AFF-INCOME-DATES-REQUIRED' };

/** E4-E6: a recorded list or income request with the key but without fromDate or toDate is refused. */
export const datesRequired: PassiveRule = {
  description: 'Every recorded lead, conversion or income request with the key but without fromDate or toDate is refused (not 200 or 201)',
  requirements: Object.values(DATED),
  judge(view) {
    return Object.entries(DATED).map(([operation, requirement]) => {
      const judged = (view.byOperation.get(operation) ?? []).filter((x) => {
        const names = queryNames(x);
        return carriesKey(x, view.table) && !(names.has('fromDate') && names.has('toDate'));
      });
      const findings: PassiveRuleFinding[] = judged
        .filter((x) => isSuccess(x.recorded.status))
        .map((x) => ({ message: `answered ${x.recorded.status} to a ${operation} request without ${queryNames(x).has('fromDate') ? 'toDate' : 'fromDate'}`, expected: 'a refusal (not 200 or 201)', actual: x.recorded.status, exchange: x }));
      return verdict(requirement, judged.length, findings, `no ${operation} request with the key but without fromDate or toDate was recorded`);
    });
  },
};

/** E. Affiliate resources (STRICTER): server.httpCode, wherever an answer carries it, is that answer's status. */
export const httpCodeStatus: PassiveRule = {
  description: 'Every recorded answer that carries server.httpCode carries its own HTTP status there',
  requirements: ['AFF-ENVELOPE-HTTPCODE-STATUS'],
  judge(view) {
    let judged = 0;
    const findings: PassiveRuleFinding[] = [];
    for (const x of view.exchanges) {
      const code = objectOf(objectOf(parsedBody(x))?.['server'])?.['httpCode'];
      // an envelope without an integer httpCode is AFF-ENVELOPE-SERVER's to judge
      if (typeof code !== 'number' || !Number.isInteger(code)) continue;
      judged++;
      if (code !== x.recorded.status) findings.push({ message: `server.httpCode is ${code} in an answer of status ${x.recorded.status}`, expected: x.recorded.status, actual: code, exchange: x });
    }
    return [verdict('AFF-ENVELOPE-HTTPCODE-STATUS', judged, findings, 'no recorded answer carries server.httpCode')];
  },
};
