import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matchRecording } from '../../../src/engine/passive/match-recording.js';
import { passiveView, type PassiveVerdict } from '../../../src/engine/passive/passive-rules.js';
import type { RecordedExchange } from '../../../src/targets/har/recording.js';
import { CLIENT_RULES } from '../../../suites/merchant/checks/client-judges.js';
import { suite } from '../../../suites/merchant/index.js';
import { clientRequests } from '../../../suites/merchant/passive/client-requests.js';
import { fromRoot } from '../../../src/paths.js';
import { loadedSuite } from '../../helpers/suite-facts.js';
import { loadedMerchantTable } from './loaded-table.js';

const table = loadedMerchantTable();

/** A recorded request with a 200 answer. */
function sent(index: number, method: string, url: string, body?: string, headers: Record<string, string> = {}): RecordedExchange {
  return { index, startedDateTime: '2025-01-01T00:00:00.000Z', method, url, requestHeaders: headers, ...(body !== undefined ? { requestBody: body } : {}), status: 200, responseHeaders: {}, responseBody: {}, durationMs: 1 };
}

/** The rule's verdicts on a recording of these exchanges, by requirement. */
function judged(exchanges: RecordedExchange[]): Record<string, PassiveVerdict> {
  const recording = { file: 'client.har', creator: 'test 1', entries: exchanges.length, exchanges, problems: [] };
  const verdicts = clientRequests.judge(passiveView(table, recording, matchRecording(table, recording)));
  return Object.fromEntries(verdicts.map((v) => [v.requirement, v]));
}

const failedOn = (v: PassiveVerdict | undefined): number[] => (v?.findings ?? []).map((f) => f.exchange.recorded.index);

const HOST = 'http://127.0.0.1:8080';

describe('merchant passive rule client-requests', () => {
  it('is the suite passive rule for every client-side requirement the live client cases judge', () => {
    expect(suite.passiveRules?.['client-requests']).toBe(clientRequests);
    expect(clientRequests.requirements).toEqual(Object.keys(CLIENT_RULES));
    expect(clientRequests.requirements).toEqual(['MERCHANT-CLIENT-PREFIX', 'MERCHANT-CLIENT-ROUTE', 'MERCHANT-CLIENT-METHOD', 'MERCHANT-CLIENT-BATCH-PATH']);
  });

  it('passes a conformant client, counting every request to the service as an observation', () => {
    const v = judged([sent(0, 'GET', `${HOST}/content/v2.1/accounts/authinfo`), sent(1, 'POST', `${HOST}/content/v2.1/7/products`, '{"offerId":"a"}'), sent(2, 'POST', `${HOST}/content/v2.1/products/batch`, '{"entries":[]}')]);
    for (const id of clientRequests.requirements) expect(v[id], id).toEqual({ requirement: id, observations: 3, findings: [] });
  });

  it('fails each requirement on its own kind of recorded request only, naming the entry', () => {
    const v = judged([
      sent(0, 'GET', `${HOST}/content/v2.1/accounts/authinfo`),
      sent(1, 'GET', `${HOST}/content/v2/accounts/authinfo`),
      sent(2, 'GET', `${HOST}/content/v2.1/7/productz`),
      sent(3, 'PUT', `${HOST}/content/v2.1/7/products/p1`, '{"title":"x"}'),
      sent(4, 'POST', `${HOST}/content/v2.1/7/products`),
      sent(5, 'POST', `${HOST}/content/v2.1/7/products/batch`, '{"entries":[]}'),
    ]);
    expect(failedOn(v['MERCHANT-CLIENT-PREFIX'])).toEqual([1]);
    expect(failedOn(v['MERCHANT-CLIENT-ROUTE'])).toEqual([2]);
    // a PUT where the table has none, and a bodiless POST on the path of list (GET) and insert (POST)
    expect(failedOn(v['MERCHANT-CLIENT-METHOD'])).toEqual([3, 4]);
    expect(failedOn(v['MERCHANT-CLIENT-BATCH-PATH'])).toEqual([5]);
    expect(v['MERCHANT-CLIENT-PREFIX']?.findings[0]?.message).toBe('GET /content/v2/accounts/authinfo is not below /content/v2.1');
    expect(v['MERCHANT-CLIENT-METHOD']?.findings[1]?.message).toMatch(/^POST \/content\/v2\.1\/7\/products: carries no body, which products\.insert \(POST\) needs/);
    for (const id of clientRequests.requirements) expect(v[id]?.observations, id).toBe(6);
  });

  it('reads the service root from the recording: requests below a base path are judged below it', () => {
    const v = judged([sent(0, 'GET', `${HOST}/shop/content/v2.1/accounts/authinfo`), sent(1, 'GET', `${HOST}/shop/content/v2.1/7/accounts`), sent(2, 'GET', `${HOST}/shop/v2/7/accounts`), sent(3, 'GET', `${HOST}/other/content/v2.1/7/accounts`)]);
    expect(failedOn(v['MERCHANT-CLIENT-PREFIX'])).toEqual([2, 3]);
    expect(v['MERCHANT-CLIENT-PREFIX']?.findings[0]?.message).toBe('GET /shop/v2/7/accounts is not below /shop/content/v2.1');
    expect(failedOn(v['MERCHANT-CLIENT-ROUTE'])).toEqual([]);
  });

  it('leaves out requests to hosts that serve no operation, CORS preflights and the site icon', () => {
    const v = judged([
      sent(0, 'GET', `${HOST}/content/v2.1/accounts/authinfo`),
      sent(1, 'GET', 'https://cdn.example/app.js'),
      sent(2, 'OPTIONS', `${HOST}/content/v2.1/7/products`, undefined, { 'access-control-request-method': 'POST' }),
      sent(3, 'GET', `${HOST}/favicon.ico`),
      sent(4, 'OPTIONS', `${HOST}/content/v2.1/7/products`),
    ]);
    // an OPTIONS the client sent itself is its request, with a method the tables do not give
    expect(failedOn(v['MERCHANT-CLIENT-METHOD'])).toEqual([4]);
    expect(failedOn(v['MERCHANT-CLIENT-PREFIX'])).toEqual([]);
    expect(v['MERCHANT-CLIENT-ROUTE']?.observations).toBe(2);
  });

  it('leaves every requirement untested, with the reason, when no request is known to reach the service', () => {
    const v = judged([sent(0, 'GET', 'https://cdn.example/app.js')]);
    for (const id of clientRequests.requirements) expect(v[id], id).toMatchObject({ observations: 0, findings: [], lacking: expect.stringMatching(/no recorded request fits an operation/) });
  });

  it("README's paragraph on recordings names the rule with its requirements, and each case that opts in", () => {
    const readme = readFileSync(fromRoot('suites', 'merchant', 'README.md'), 'utf8');
    const paragraph = readme.slice(readme.indexOf('## Judged from a recording'), readme.indexOf('## Where the spec says'));
    const rules = Object.entries(suite.passiveRules ?? {});
    for (const [name] of rules) expect(paragraph).toContain(`the passive rule \`${name}\``);
    for (const id of rules.flatMap(([, r]) => r.requirements)) expect(paragraph).toContain(`\`${id}\``);
    const optedIn = loadedSuite(suite).cases.filter((c) => c.passive === 'judge').map((c) => c.id);
    expect(optedIn.length).toBeGreaterThan(0);
    for (const id of optedIn) expect(paragraph).toContain(`\`${id}\``);
    // the README names no other case as judged from a recording
    const named = [...paragraph.slice(0, paragraph.indexOf('What a recording cannot settle')).matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)].map((m) => m[1]);
    expect(named.filter((n) => n !== 'client-requests').sort()).toEqual([...optedIn].sort());
  });
});
