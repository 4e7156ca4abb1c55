import { describe, expect, it } from 'vitest';
import type { ApiTable } from '../../../src/engine/api/table.js';
import { Baseline } from '../../../src/engine/baseline.js';
import { EventBus, type EngineEvent } from '../../../src/engine/events.js';
import type { CaseDef, LoadedSuite, Step } from '../../../src/engine/model.js';
import { literalBaseTail, matchRecording } from '../../../src/engine/passive/match-recording.js';
import { NEEDS_LIVE, passiveTable, runPassiveSuite } from '../../../src/engine/passive/passive-suite.js';
import { SpecgateError } from '../../../src/errors.js';
import type { RecordedExchange, Recording } from '../../../src/targets/har/recording.js';

const note = { type: 'object', required: ['id', 'title'], properties: { id: { type: 'string' }, title: { type: 'string' } } };

const TABLE: ApiTable = {
  suite: 'mini',
  base: '${api_url}',
  auth: { header: 'Authorization', value: 'Bearer ${token}', status: 401 },
  wrongMethodStatus: 405,
  goneStatus: 404,
  params: {},
  operations: [
    { id: 'listNotes', method: 'GET', path: '/notes', parameters: [], requiredHeaders: {}, auth: true, responses: { '200': null } },
    { id: 'createNote', method: 'POST', path: '/notes', parameters: [], requiredHeaders: { 'Idempotency-Key': '${key}' }, auth: true, responses: { '201': 'mini/note', '400': null } },
    { id: 'getNote', method: 'GET', path: '/notes/{note_id}', parameters: [{ name: 'note_id', in: 'path', type: 'string', required: true }], requiredHeaders: {}, auth: true, responses: { '200': 'mini/note', '404': null } },
    { id: 'health', method: 'GET', path: '/health', parameters: [], requiredHeaders: {}, auth: false, responses: { '200': null } },
  ],
  resources: {},
  schemas: { 'mini/note': note },
  file: 'api.yaml',
};

const AUTH = { authorization: 'Bearer secret-token-1234' };

function ex(index: number, method: string, url: string, status: number, body?: unknown, requestHeaders: Record<string, string> = AUTH): RecordedExchange {
  const x: RecordedExchange = { index, startedDateTime: '2025-01-01T00:00:00Z', method, url, requestHeaders, status, responseHeaders: { 'content-type': 'application/json' }, responseBody: body, durationMs: 2 };
  if (body !== undefined) x.responseText = JSON.stringify(body);
  return x;
}

const at = { file: 'cases.yaml', line: 1, column: 1 };
function checkCase(id: string, requirement: string, check: string, operation: string): CaseDef {
  return { id, requirements: [requirement], steps: [{ check, with: { operation } }], location: at };
}

function suiteOf(cases: CaseDef[]): LoadedSuite & { api: ApiTable } {
  const reqs = [...new Set(cases.flatMap((c) => c.requirements))];
  return { name: 'mini', dir: '/nowhere', requirements: reqs.map((id) => ({ id, level: 'MUST' as const, source: 'spec.txt#x', text: id })), cases, api: TABLE };
}

function judge(cases: CaseDef[], exchanges: RecordedExchange[], problems: Recording['problems'] = []): { result: ReturnType<typeof runPassiveSuite>; events: EngineEvent[] } {
  const bus = new EventBus();
  const events: EngineEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const recording: Recording = { file: 'traffic.har', creator: 'test 1', entries: exchanges.length + problems.filter((p) => p.index !== undefined).length, exchanges, problems };
  const suite = suiteOf(cases);
  return { result: runPassiveSuite(suite, cases, recording, 'recording traffic.har', bus, new Baseline()), events };
}

const statuses = (r: ReturnType<typeof runPassiveSuite>): Record<string, string> => Object.fromEntries(r.requirements.map((v) => [v.id, v.status]));

describe('matchRecording', () => {
  it('sorts exchanges by operation, skips a base-path prefix, and says why the rest fit none', () => {
    const m = matchRecording(TABLE, {
      file: 'x.har',
      creator: 't',
      entries: 5,
      problems: [],
      exchanges: [ex(0, 'GET', 'http://h/v1/notes/n%201', 200), ex(1, 'GET', 'http://h/notes', 200), ex(2, 'PUT', 'http://h/health', 405), ex(3, 'GET', 'http://h/favicon.ico', 404), ex(4, 'GET', 'http://h/notes', 0)],
    });
    expect(m.byOperation.get('getNote')?.map((x) => [x.recorded.index, x.params])).toEqual([[0, { note_id: 'n 1' }]]);
    expect(m.byOperation.get('listNotes')?.map((x) => x.recorded.index)).toEqual([1]);
    expect(m.unmatched.map((u) => [u.recorded.index, u.why])).toEqual([
      [2, expect.stringMatching(/PUT is not an operation on \/health/)],
      [3, expect.stringMatching(/no operation has a path that fits \/favicon\.ico/)],
      [4, 'the recording holds no answer to it'],
    ]);
  });
});

describe('runPassiveSuite', () => {
  it('passes api.served on conforming answers; a listed error status says nothing', () => {
    const { result } = judge([checkCase('get-served', 'R-GET', 'api.served', 'getNote')], [ex(0, 'GET', 'http://h/notes/a', 200, { id: 'a', title: 't' }), ex(1, 'GET', 'http://h/notes/zz', 404, { error: 'gone' })]);
    expect(statuses(result)).toEqual({ 'R-GET': 'passed' });
    expect(result.cases[0]?.outcome).toBe('passed');
    expect(result.properties).toMatchObject({ mode: 'passive', recording: 'traffic.har', exchanges: '2', matched: '2' });
  });

  it('fails api.served on a body that breaks its schema and on an unlisted status, naming the entry, credentials masked', () => {
    const { result, events } = judge(
      [checkCase('get-served', 'R-GET', 'api.served', 'getNote')],
      [ex(0, 'GET', 'http://h/notes/a', 200, { id: 'a' }), ex(1, 'GET', 'http://h/notes/b', 500, { oops: true })],
    );
    expect(statuses(result)).toEqual({ 'R-GET': 'failed' });
    const c = result.cases[0];
    expect(c?.outcome).toBe('failed');
    // one failure of R-GET, listing both entries that broke it
    expect(c?.failures).toHaveLength(1);
    expect(c?.failures[0]?.assertions?.map((f) => f.message)).toEqual([
      expect.stringMatching(/^GET http:\/\/h\/notes\/a \(entry 0\): .*lacks title \(the 200 answer's body breaks schema mini\/note\)$/),
      expect.stringMatching(/^GET http:\/\/h\/notes\/b \(entry 1\): answered 500, a status operation getNote does not list \(it answers 200, 404\)/),
    ]);
    expect(JSON.stringify(c)).not.toContain('secret-token-1234');
    expect(c?.exchanges[0]?.request).toMatchObject({ headers: { authorization: '***' } });
    expect(events.filter((e) => e.type === 'failure')).toHaveLength(1);
  });

  it('judges api.schema on every proper answer, and api.authRequired only on requests without credentials', () => {
    const cases = [checkCase('get-schema', 'R-SCHEMA', 'api.schema', 'getNote'), checkCase('list-auth', 'R-AUTH', 'api.authRequired', 'listNotes'), checkCase('get-auth', 'R-AUTH-GET', 'api.authRequired', 'getNote')];
    const { result } = judge(cases, [
      ex(0, 'GET', 'http://h/notes/a', 200, { id: 'a', title: 't' }),
      ex(1, 'GET', 'http://h/notes', 200, [], {}),
      ex(2, 'GET', 'http://h/notes/a', 401, undefined, {}),
    ]);
    expect(statuses(result)).toEqual({ 'R-SCHEMA': 'passed', 'R-AUTH': 'failed', 'R-AUTH-GET': 'passed' });
    expect(result.cases[1]?.failures[0]?.message).toMatch(/answered 200 to a request without Authorization/);
  });

  it('leaves untested what needs live requests, and what the recording never reached, saying why', () => {
    const live: CaseDef = { id: 'get-by-request', requirements: ['R-LIVE'], steps: [{ request: { method: 'GET', url: '${api_url}/notes' }, expect: { status: 200 } } as Step], location: at };
    const { result } = judge(
      [checkCase('wrong-method', 'R-405', 'api.wrongMethod', 'getNote'), live, checkCase('list-served', 'R-LIST', 'api.served', 'listNotes'), checkCase('auth-unprobed', 'R-AUTH', 'api.authRequired', 'getNote')],
      [ex(0, 'GET', 'http://h/notes/a', 200, { id: 'a', title: 't' })],
    );
    expect(statuses(result)).toEqual({ 'R-405': 'untested', 'R-LIVE': 'untested', 'R-LIST': 'untested', 'R-AUTH': 'untested' });
    const reasons = Object.fromEntries(result.requirements.map((v) => [v.id, v.reason]));
    expect(reasons['R-405']).toBe(`skipped: ${NEEDS_LIVE}`);
    expect(reasons['R-LIVE']).toBe(`skipped: ${NEEDS_LIVE}`);
    expect(reasons['R-LIST']).toMatch(/passive target: the recording has no .* of operation listNotes/);
    expect(reasons['R-AUTH']).toMatch(/no request without credentials of operation getNote/);
  });

  it("says what the recording lacked for a rule's requirement, not the reason of a live case that covers it too", () => {
    const live: CaseDef = { id: 'pair-by-request', requirements: ['R-PAIR'], steps: [{ request: { method: 'GET', url: '${api_url}/notes' }, expect: { status: 200 } } as Step], location: at };
    const rules = { pairs: { description: 'notes read twice', requirements: ['R-PAIR'], judge: () => [{ requirement: 'R-PAIR', observations: 0, findings: [], lacking: 'no note was read twice' }] } };
    const cases = [live];
    const recording: Recording = { file: 'traffic.har', creator: 'test 1', entries: 1, exchanges: [ex(0, 'GET', 'http://h/notes/a', 200, { id: 'a', title: 't' })], problems: [] };
    const result = runPassiveSuite(suiteOf(cases), cases, recording, 'recording traffic.har', new EventBus(), new Baseline(), undefined, undefined, rules);
    const verdict = result.requirements.find((v) => v.id === 'R-PAIR');
    expect(verdict?.status).toBe('untested');
    expect(verdict?.reason).toBe('nothing to judge: passive target: no note was read twice (case passive:pairs)');
  });

  it('does not judge a request lacking a required header, and reports it and the unmatched exchanges as warnings', () => {
    const { result, events } = judge(
      [checkCase('create-served', 'R-CREATE', 'api.served', 'createNote')],
      [ex(0, 'POST', 'http://h/notes', 400, { error: 'key?' }), ex(1, 'GET', 'http://h/other', 200, {})],
    );
    expect(statuses(result)).toEqual({ 'R-CREATE': 'untested' });
    const warnings = events.flatMap((e) => (e.type === 'log' && e.level === 'warn' ? [e.message] : []));
    expect(warnings).toEqual([
      expect.stringMatching(/1 recorded exchange\(s\) fit no operation of suite mini .*entry 1 GET http:\/\/h\/other/),
      expect.stringMatching(/1 recorded request\(s\) lack headers .*entry 0 createNote lacks Idempotency-Key/),
    ]);
    expect(result.properties['unmatched']).toContain('entry 1 GET http://h/other');
  });

  it('reports entries left out as warnings and properties, and does not judge a body kept cut against its schema', () => {
    const cut = ex(1, 'GET', 'http://h/notes/b', 200, undefined);
    cut.responseText = '{"id":"b","title":"';
    cut.responseCut = { size: 9_000_000, parsable: true };
    const problems = [{ index: 2, message: 'traffic.har:40:5: entry 2: it nests JSON 100001 levels deep' }, { message: 'traffic.har: the file ends before log.entries closes' }];
    const { result, events } = judge([checkCase('get-served', 'R-GET', 'api.served', 'getNote'), checkCase('get-schema', 'R-SCHEMA', 'api.schema', 'getNote')], [ex(0, 'GET', 'http://h/notes/a', 200, { id: 'a', title: 't' }), cut], problems);
    // the cut answer is not judged (a piece of it breaks the schema), the whole one is
    expect(statuses(result)).toEqual({ 'R-GET': 'passed', 'R-SCHEMA': 'passed' });
    const warnings = events.flatMap((e) => (e.type === 'log' && e.level === 'warn' ? [e.message] : []));
    expect(warnings).toEqual([
      expect.stringMatching(/^traffic\.har: 1 of 3 recorded entries were left out and the file has a problem after its entries: traffic\.har:40:5: entry 2: it nests JSON 100001 levels deep; traffic\.har: the file ends/),
      expect.stringMatching(/1 recorded answer\(s\) have a body over the recording's body cap, kept cut: .*entry 1 getNote \(9000000 bytes\)/),
    ]);
    expect(result.properties['entriesLeftOut']).toBe(problems.map((p) => p.message).join('\n'));
    expect(result.properties['bodiesCut']).toBe('entry 1 getNote (9000000 bytes)');
  });

  it('names the requests whose body was kept cut, judges no request step on them, and says so', () => {
    const cut = ex(1, 'POST', 'http://h/notes', 201, { id: 'n2', title: 'long' }, { ...AUTH, 'idempotency-key': 'k2' });
    cut.requestBody = '{"title":"lo';
    cut.requestCut = 2_000_000;
    const stray = ex(2, 'PUT', 'http://h/elsewhere', 200, {});
    stray.requestBody = 'abc';
    stray.requestCut = 3_000_000;
    const whole = ex(0, 'POST', 'http://h/notes', 201, { id: 'n1', title: 'long' }, { ...AUTH, 'idempotency-key': 'k1' });
    whole.requestBody = '{"title":"long"}';
    const create: CaseDef = { id: 'create-echoes', requirements: ['R-ECHO'], passive: 'judge', steps: [{ request: { operation: 'createNote', json: { title: '${t}' } }, expect: { status: 201, body: { title: '${t}' } } }], location: at };
    const { result, events } = judge([create], [whole, cut, stray]);
    const judged = result.cases.find((c) => c.id === 'create-echoes');
    // only the whole request stands for the step: the cut one cannot show its title
    expect(judged).toMatchObject({ outcome: 'passed', evidence: { 'R-ECHO': 1 } });
    expect(judged?.exchanges.map((x) => (x.request as { body?: unknown }).body)).toEqual(['{"title":"long"}']);
    const warnings = events.flatMap((e) => (e.type === 'log' && e.level === 'warn' ? [e.message] : []));
    expect(warnings).toContainEqual(expect.stringMatching(/^traffic\.har: 2 recorded request\(s\) have a body over the recording's body cap, kept cut: their bodies are not judged against schemas, and no request step of a case stands on them: entry 1 createNote \(2000000 bytes\); entry 2 PUT http:\/\/h\/elsewhere \(3000000 bytes\)$/));
    expect(result.properties['requestBodiesCut']).toBe('entry 1 createNote (2000000 bytes)\nentry 2 PUT http://h/elsewhere (3000000 bytes)');
    expect(result.properties).not.toHaveProperty('bodiesCut');
    // a recording with no cut request says nothing of it
    expect(judge([create], [whole]).result.properties).not.toHaveProperty('requestBodiesCut');
  });

  it('says a request that was recorded only with its body cut was recorded, naming the entry and that its body was cut', () => {
    const cut = ex(1, 'POST', 'http://h/notes', 201, { id: 'n2', title: 'long' }, { ...AUTH, 'idempotency-key': 'k2' });
    cut.requestBody = '{"title":"lo';
    cut.requestCut = 2_000_000;
    const create: CaseDef = { id: 'create-echoes', requirements: ['R-ECHO'], passive: 'judge', steps: [{ request: { operation: 'createNote', json: { title: '${t}' } }, expect: { status: 201, body: { title: '${t}' } } }], location: at };
    const skipped = (exchanges: RecordedExchange[]): string | undefined => judge([create], exchanges).result.cases.find((c) => c.id === 'create-echoes')?.reason;
    expect(skipped([cut])).toMatch(/^passive target: no POST createNote .*with the body it sends was recorded whole: the request body of entry 1 \(2000000 bytes\) was kept cut by the recording's body cap, and a cut body cannot show the fields the step sends$/);
    const other = { ...cut, index: 2, requestCut: 3_000_000 };
    expect(skipped([cut, other])).toContain('the request body of entries 1 (2000000 bytes), 2 (3000000 bytes) was kept cut');
    // a cut request that is another one (no credentials where the step sends them) is not named: nothing was recorded
    expect(skipped([{ ...cut, requestHeaders: { 'idempotency-key': 'k2' } }])).toMatch(/^passive target: no POST createNote .*with the body it sends was recorded$/);
  });

  it('refuses a suite without an API table as a configuration error', () => {
    const bare: LoadedSuite = { name: 'plain', dir: '/x', requirements: [], cases: [] };
    expect(() => passiveTable(bare)).toThrow(SpecgateError);
    expect(() => passiveTable(bare)).toThrow(/describes no HTTP API \(api\.yaml\)/);
  });
});

describe('literalBaseTail', () => {
  it("is the base's literal path after its last expression, or a literal base's path", () => {
    expect(literalBaseTail('${merchant_url}/content/v2.1')).toBe('/content/v2.1');
    expect(literalBaseTail('${api_url}')).toBe('');
    expect(literalBaseTail('https://host.example/api/v1/')).toBe('/api/v1');
  });
});
