import { describe, expect, it } from 'vitest';
import type { ApiTable } from '../../../src/engine/api/table.js';
import type { CaseDef, Step } from '../../../src/engine/model.js';
import { matchRecording, type MatchedExchange } from '../../../src/engine/passive/match-recording.js';
import { casePatterns, type StepPattern } from '../../../src/engine/passive/request-pattern.js';
import { findSequences } from '../../../src/engine/passive/sequence-match.js';
import { runPassiveSuite } from '../../../src/engine/passive/passive-suite.js';
import { Baseline } from '../../../src/engine/baseline.js';
import { EventBus } from '../../../src/engine/events.js';
import type { RecordedExchange } from '../../../src/targets/har/recording.js';

const TABLE: ApiTable = {
  suite: 'mini',
  base: '${api_url}',
  auth: { header: 'Authorization', value: 'Bearer ${token}', status: 401 },
  wrongMethodStatus: 405,
  goneStatus: 404,
  params: { note_id: '${note_id}' },
  operations: [
    { id: 'listNotes', method: 'GET', path: '/notes', parameters: [], requiredHeaders: {}, auth: true, responses: { '200': null } },
    { id: 'createNote', method: 'POST', path: '/notes', parameters: [], requiredHeaders: { 'Idempotency-Key': '${key}' }, auth: true, responses: { '201': null } },
    { id: 'getNote', method: 'GET', path: '/notes/{note_id}', parameters: [], requiredHeaders: {}, auth: true, responses: { '200': null, '304': null } },
  ],
  resources: {},
  schemas: {},
  file: 'api.yaml',
};

const AUTH = { authorization: 'Bearer t' };
const at = { file: 'cases.yaml', line: 1, column: 1 };

function ex(index: number, method: string, url: string, status: number, opts: { headers?: Record<string, string>; body?: string; answerHeaders?: Record<string, string>; answer?: unknown } = {}): RecordedExchange {
  const x: RecordedExchange = { index, startedDateTime: '2025-01-01T00:00:00Z', method, url, requestHeaders: opts.headers ?? AUTH, status, responseHeaders: { 'content-type': 'application/json', ...(opts.answerHeaders ?? {}) }, responseBody: opts.answer, durationMs: 1 };
  if (opts.body !== undefined) x.requestBody = opts.body;
  return x;
}

function patternsOf(steps: Step[]): StepPattern[] {
  const c: CaseDef = { id: 'c', requirements: ['R-1'], passive: 'judge', steps, location: at };
  const { patterns, problems } = casePatterns(c, TABLE);
  expect(problems).toEqual([]);
  return patterns;
}

/** The entries of each sequence found, and the variables the last step saw. */
function sequences(steps: Step[], exchanges: RecordedExchange[], initial: Record<string, unknown> = {}): { entries: number[]; vars: Record<string, unknown> }[] {
  const match = matchRecording(TABLE, { file: 't.har', creator: 't', entries: exchanges.length, exchanges, problems: [] });
  const candidates = (op: string): readonly MatchedExchange[] => match.byOperation.get(op) ?? [];
  return findSequences(patternsOf(steps), candidates, initial).map((s) => ({
    entries: [...s.exchanges.entries()].sort((a, b) => a[0] - b[0]).map(([, x]) => x.recorded.index),
    vars: { ...(s.varsAt.get(Math.max(...s.varsAt.keys())) ?? {}) },
  }));
}

describe('matching request steps to recorded exchanges', () => {
  it('binds a variable in a query value and holds it to the same value throughout the case', () => {
    const steps: Step[] = [{ request: { operation: 'listNotes', query: { tag: '${tag}' } } }, { request: { operation: 'listNotes', query: { tag: '${tag}', page: 2 } } }];
    const found = sequences(steps, [ex(0, 'GET', 'http://h/notes?tag=a', 200), ex(1, 'GET', 'http://h/notes?tag=b&page=2', 200), ex(2, 'GET', 'http://h/notes?tag=a&page=2', 200)]);
    expect(found).toEqual([{ entries: [0, 2], vars: { tag: 'a' } }]);
  });

  it('takes exactly the query names the step sends: a step without a parameter matches only requests without it', () => {
    const steps: Step[] = [{ request: { operation: 'listNotes' } }];
    expect(sequences(steps, [ex(0, 'GET', 'http://h/notes?env=x', 200), ex(1, 'GET', 'http://h/notes', 200)]).map((s) => s.entries)).toEqual([[1]]);
    const literal: Step[] = [{ request: { operation: 'listNotes', query: { page: 2 } } }];
    expect(sequences(literal, [ex(0, 'GET', 'http://h/notes?page=3', 200), ex(1, 'GET', 'http://h/notes?page=2&x=1', 200), ex(2, 'GET', 'http://h/notes?page=2', 200)]).map((s) => s.entries)).toEqual([[2]]);
  });

  it('matches credentials as the step sends them: with auth only requests carrying the header, auth: false only those without', () => {
    const recorded = [ex(0, 'GET', 'http://h/notes', 200), ex(1, 'GET', 'http://h/notes', 401, { headers: {} })];
    expect(sequences([{ request: { operation: 'listNotes' } }], recorded).map((s) => s.entries)).toEqual([[0]]);
    expect(sequences([{ request: { operation: 'listNotes', auth: false } }], recorded).map((s) => s.entries)).toEqual([[1]]);
    // a request by URL sends only the headers it names
    expect(sequences([{ request: { method: 'GET', url: '${api_url}/notes' } }], recorded).map((s) => s.entries)).toEqual([[1]]);
  });

  it('binds explicit headers and path parameters, names case-insensitive; headers the step does not set are free', () => {
    const steps: Step[] = [{ request: { operation: 'getNote', headers: { 'X-Trace': 'id-${trace}' } } }];
    const found = sequences(steps, [ex(0, 'GET', 'http://h/notes/7', 200, { headers: { ...AUTH, 'x-trace': 'id-42', 'user-agent': 'any' } })]);
    expect(found).toEqual([{ entries: [0], vars: { note_id: '7', trace: '42' } }]);
  });

  it('binds captures from the matched answer: a later If-None-Match matches only the request that sent that ETag', () => {
    const steps: Step[] = [
      { request: { operation: 'getNote' }, capture: { etag: 'header:etag' } },
      { request: { operation: 'getNote', headers: { 'If-None-Match': '${etag}' } } },
    ];
    const recorded = [
      ex(0, 'GET', 'http://h/notes/1', 200, { answerHeaders: { etag: '"v1"' } }),
      ex(1, 'GET', 'http://h/notes/1', 304, { headers: { ...AUTH, 'if-none-match': '"v0"' } }),
      ex(2, 'GET', 'http://h/notes/1', 304, { headers: { ...AUTH, 'if-none-match': '"v1"' } }),
    ];
    expect(sequences(steps, recorded)).toEqual([{ entries: [0, 2], vars: { note_id: '1', etag: '"v1"' } }]);
    // a step that sends no condition does not stand for a conditional request
    expect(sequences([{ request: { operation: 'getNote' } }], recorded).map((s) => s.entries)).toEqual([[0]]);
  });

  it('reads the body fields the step gives, extra recorded fields allowed', () => {
    const steps: Step[] = [{ request: { operation: 'createNote', json: { title: '${title}', kind: 'memo' } } }];
    const recorded = [
      ex(0, 'POST', 'http://h/notes', 201, { body: '{"title":"a","kind":"todo"}', headers: { ...AUTH, 'idempotency-key': 'k' } }),
      ex(1, 'POST', 'http://h/notes', 201, { body: '{"title":"b","kind":"memo","extra":1}', headers: { ...AUTH, 'idempotency-key': 'k' } }),
      ex(2, 'POST', 'http://h/notes', 201, { body: '{"kind":"memo"}', headers: { ...AUTH, 'idempotency-key': 'k' } }),
    ];
    expect(sequences(steps, recorded)).toEqual([{ entries: [1], vars: { title: 'b' } }]);
  });

  it('finds every non-overlapping sequence in order, earliest first', () => {
    const steps: Step[] = [{ request: { operation: 'listNotes' } }, { request: { operation: 'getNote' } }];
    const recorded = [ex(0, 'GET', 'http://h/notes', 200), ex(1, 'GET', 'http://h/notes', 200), ex(2, 'GET', 'http://h/notes/1', 200), ex(3, 'GET', 'http://h/notes/1', 200), ex(4, 'GET', 'http://h/notes', 200), ex(5, 'GET', 'http://h/notes/1', 200)];
    expect(sequences(steps, recorded).map((s) => s.entries)).toEqual([
      [0, 2],
      [4, 5],
    ]);
    // the order of the steps is the order of the entries
    expect(sequences([...steps].reverse(), [ex(0, 'GET', 'http://h/notes', 200), ex(1, 'GET', 'http://h/notes/1', 200)])).toEqual([]);
  });

  it('never looks at the answers: a failing answer is judged, not passed over for a passing one', () => {
    const recorded = [ex(0, 'GET', 'http://h/notes', 500), ex(1, 'GET', 'http://h/notes', 200)];
    expect(sequences([{ request: { operation: 'listNotes' }, expect: { status: 200 } }], recorded).map((s) => s.entries)).toEqual([[0], [1]]);
  });

  it('refuses steps a recording cannot stand in for', () => {
    const c: CaseDef = { id: 'c', requirements: ['R-1'], passive: 'judge', steps: [{ request: { operation: 'listNotes' } }, { check: 'mini.walk' }, { wait: 1 }], location: at };
    expect(casePatterns(c, TABLE).problems.map((p) => [p.step, p.message])).toEqual([
      [1, 'step 2 is the typed check mini.walk, which sends requests of its own, which a recording cannot stand in for'],
      [2, 'step 3 waits, which a recording cannot stand in for'],
    ]);
  });
});

describe('a case that opted in, judged from a recording', () => {
  const judgeCase = (c: CaseDef, exchanges: RecordedExchange[]) => {
    const suite = { name: 'mini', dir: '/nowhere', requirements: c.requirements.map((id) => ({ id, level: 'MUST' as const, source: 's#x', text: id })), cases: [c], api: TABLE };
    return runPassiveSuite(suite, [c], { file: 't.har', creator: 't', entries: exchanges.length, exchanges, problems: [] }, 'recording t.har', new EventBus(), new Baseline());
  };
  const listed: CaseDef = { id: 'list', requirements: ['R-1'], passive: 'judge', steps: [{ request: { operation: 'listNotes' }, expect: { status: 200, body: { $each: { id: { $type: 'string' } } }, evidence: '$' } }], location: at };

  it('judges every fitting exchange with the expectation, names the entry and step, masks credentials, counts evidence', () => {
    const r = judgeCase(listed, [ex(0, 'GET', 'http://h/notes', 200, { answer: [{ id: 'a' }, { id: 'b' }] }), ex(1, 'GET', 'http://h/notes', 200, { answer: [{ id: 3 }] })]);
    const c = r.cases[0];
    expect(c?.outcome).toBe('failed');
    expect(c?.failures.map((f) => f.message)).toEqual(['GET http://h/notes (entry 1, step 1): $[0].id: expected a string, got the number 3']);
    expect(JSON.stringify(c?.exchanges)).not.toContain('Bearer t');
    expect(judgeCase(listed, [ex(0, 'GET', 'http://h/notes', 200, { answer: [{ id: 'a' }, { id: 'b' }] })]).cases[0]).toMatchObject({ outcome: 'passed', evidence: { 'R-1': 2 } });
  });

  it('with no fitting exchange, is untested with what the recording lacks', () => {
    const r = judgeCase({ ...listed, steps: [{ request: { operation: 'listNotes', auth: false }, expect: { status: 401 } }] }, [ex(0, 'GET', 'http://h/notes', 200)]);
    expect(r.cases[0]).toMatchObject({ outcome: 'skipped', reason: 'passive target: no GET listNotes without credentials, without query was recorded' });
    expect(r.requirements[0]?.status).toBe('untested');
  });
});
