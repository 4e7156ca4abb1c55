import { describe, expect, it } from 'vitest';
import type { ApiTable } from '../../../src/engine/api/table.js';
import type { CaseDef, Step } from '../../../src/engine/model.js';
import { interleavedWrite, isWrite, mayHaveWritten } from '../../../src/engine/passive/interleaved-writes.js';
import { matchRecording, type MatchedExchange } from '../../../src/engine/passive/match-recording.js';
import { casePatterns, type RequestPattern } from '../../../src/engine/passive/request-pattern.js';
import { findSequences, type WriteGuard } from '../../../src/engine/passive/sequence-match.js';
import type { RecordedExchange } from '../../../src/targets/har/recording.js';

const TABLE: ApiTable = {
  suite: 'mini',
  base: '${api_url}/v1',
  wrongMethodStatus: 405,
  goneStatus: 404,
  params: { owner: '${owner}' },
  operations: [
    { id: 'createNote', method: 'POST', path: '/{owner}/notes', parameters: [], requiredHeaders: {}, auth: false, responses: { '201': null } },
    { id: 'getNote', method: 'GET', path: '/{owner}/notes/{note_id}', parameters: [], requiredHeaders: {}, auth: false, responses: { '200': null } },
    { id: 'patchNote', method: 'PATCH', path: '/{owner}/notes/{note_id}', parameters: [], requiredHeaders: {}, auth: false, responses: { '200': null } },
    { id: 'deleteNote', method: 'DELETE', path: '/{owner}/notes/{note_id}', parameters: [], requiredHeaders: {}, auth: false, responses: { '204': null } },
    { id: 'restoreNote', method: 'POST', path: '/{owner}/notes/{note_id}:restore', parameters: [], requiredHeaders: {}, auth: false, responses: { '200': null } },
    { id: 'tagNote', method: 'POST', path: '/{owner}/notes/{note_id}/tags', parameters: [], requiredHeaders: {}, auth: false, responses: { '200': null } },
  ],
  resources: {},
  schemas: {},
  file: 'api.yaml',
};

const at = { file: 'cases.yaml', line: 1, column: 1 };
const H = 'http://h/v1/o1/notes';

function ex(index: number, method: string, url: string, answer?: unknown): RecordedExchange {
  // every request carries a body of the fields the steps below give
  return { index, startedDateTime: '2025-01-01T00:00:00Z', method, url, requestHeaders: {}, requestBody: '{"title":"t"}', status: 200, responseHeaders: { 'content-type': 'application/json' }, responseBody: answer, durationMs: 1 };
}

/** Insert a note, then read it back: the case's steps address the note by the ID the insert answered. */
const INSERT_THEN_GET: Step[] = [
  { request: { operation: 'createNote', json: { title: '${title}' } }, capture: { note: '$.id' } },
  { request: { operation: 'getNote', params: { note_id: '${note}' } }, expect: { status: 200, body: { title: '${title}' } } },
];

function patternsOf(steps: Step[]): RequestPattern[] {
  const c: CaseDef = { id: 'c', requirements: ['R-1'], passive: 'judge', steps, location: at };
  const { patterns, problems } = casePatterns(c, TABLE);
  expect(problems).toEqual([]);
  return patterns.filter((p): p is RequestPattern => p.kind === 'request');
}

/** The entries of each sequence the guarded search keeps, and the first write it passed over. */
function guarded(steps: Step[], recorded: RecordedExchange[]): { kept: number[][]; rejected?: string } {
  const match = matchRecording(TABLE, { file: 't.har', creator: 't', entries: recorded.length, exchanges: recorded, problems: [] });
  const candidates = (op: string): readonly MatchedExchange[] => match.byOperation.get(op) ?? [];
  const guard: WriteGuard = { recorded: match.recorded };
  const kept = findSequences(patternsOf(steps), candidates, {}, guard).map((s) => [...s.exchanges.values()].map((x) => x.recorded.index).sort((a, b) => a - b));
  return { kept, ...(guard.rejected ? { rejected: `${guard.rejected.write.index} ${guard.rejected.item} ${guard.rejected.between.join('-')}` } : {}) };
}

describe('the interleaved-write guard of recorded sequences', () => {
  it('takes every method but the safe ones as a write', () => {
    expect(['GET', 'head', 'OPTIONS', 'TRACE'].map(isWrite)).toEqual([false, false, false, false]);
    expect(['POST', 'PUT', 'patch', 'DELETE', 'PURGE'].map(isWrite)).toEqual([true, true, true, true, true]);
  });

  it('keeps an insert and its read-back with no other write on the item between them', () => {
    const recorded = [ex(0, 'POST', H, { id: '7' }), ex(1, 'GET', `${H}/7`), ex(2, 'PATCH', `${H}/8`), ex(3, 'GET', `${H}/7`)];
    // a read of the item, and a write on another item, are no interference
    expect(guarded(INSERT_THEN_GET, recorded)).toEqual({ kept: [[0, 1]] });
    const reads = [ex(0, 'POST', H, { id: '7' }), ex(1, 'GET', `${H}/7?x=1`), ex(2, 'PATCH', `${H}/8`), ex(3, 'GET', `${H}/7`)];
    expect(guarded(INSERT_THEN_GET, reads)).toEqual({ kept: [[0, 3]] });
  });

  it('passes over a sequence with another write on the same item between its steps, and uses the next clean one', () => {
    const recorded = [ex(0, 'POST', H, { id: '7' }), ex(1, 'PATCH', `${H}/7`), ex(2, 'GET', `${H}/7`), ex(3, 'POST', H, { id: '9' }), ex(4, 'GET', `${H}/9`)];
    expect(guarded(INSERT_THEN_GET, recorded)).toEqual({ kept: [[3, 4]], rejected: '1 /v1/o1/notes/7 0-2' });
  });

  it('leaves the case without a sequence when every one has such a write', () => {
    const recorded = [ex(0, 'POST', H, { id: '7' }), ex(1, 'DELETE', `${H}/7`), ex(2, 'GET', `${H}/7`)];
    expect(guarded(INSERT_THEN_GET, recorded)).toEqual({ kept: [], rejected: '1 /v1/o1/notes/7 0-2' });
  });

  it('counts a write below the item and a custom method on it, not one on an item whose ID only begins the same', () => {
    const below = [ex(0, 'POST', H, { id: '7' }), ex(1, 'POST', `${H}/7/tags`), ex(2, 'GET', `${H}/7`)];
    expect(guarded(INSERT_THEN_GET, below).kept).toEqual([]);
    const verb = [ex(0, 'POST', H, { id: '7' }), ex(1, 'POST', `${H}/7:restore`), ex(2, 'GET', `${H}/7`)];
    expect(guarded(INSERT_THEN_GET, verb).kept).toEqual([]);
    const other = [ex(0, 'POST', H, { id: '7' }), ex(1, 'DELETE', `${H}/77`), ex(2, 'POST', `${H}/7x:restore`), ex(3, 'GET', `${H}/7`)];
    expect(guarded(INSERT_THEN_GET, other)).toEqual({ kept: [[0, 3]] });
  });

  it('counts a write no operation fits (a method the table lacks) and one the recording holds no answer to', () => {
    const stray = [ex(0, 'POST', H, { id: '7' }), ex(1, 'PUT', `${H}/7`), ex(2, 'GET', `${H}/7`)];
    expect(guarded(INSERT_THEN_GET, stray).kept).toEqual([]);
    const unanswered = [ex(0, 'POST', H, { id: '7' }), { ...ex(1, 'DELETE', `${H}/7`), status: 0 }, ex(2, 'GET', `${H}/7`)];
    expect(guarded(INSERT_THEN_GET, unanswered).kept).toEqual([]);
  });

  it('does not count a write its answer refused (4xx, 5xx): it changed nothing', () => {
    expect([400, 404, 409, 500, 503].map((status) => mayHaveWritten({ method: 'DELETE', status }))).toEqual([false, false, false, false, false]);
    expect([0, 200, 204, 302].map((status) => mayHaveWritten({ method: 'DELETE', status }))).toEqual([true, true, true, true]);
    expect(mayHaveWritten({ method: 'GET', status: 200 })).toBe(false);
    for (const status of [404, 409, 503]) {
      const refused = [ex(0, 'POST', H, { id: '7' }), { ...ex(1, 'DELETE', `${H}/7`), status }, ex(2, 'GET', `${H}/7`)];
      expect(guarded(INSERT_THEN_GET, refused)).toEqual({ kept: [[0, 2]] });
    }
  });

  it('does not count a write to another origin on the same path, and counts one to the same host and port', () => {
    const elsewhere = [ex(0, 'POST', H, { id: '7' }), ex(1, 'DELETE', 'http://other/v1/o1/notes/7'), ex(2, 'DELETE', 'http://h:8080/v1/o1/notes/7'), ex(3, 'GET', `${H}/7`)];
    expect(guarded(INSERT_THEN_GET, elsewhere)).toEqual({ kept: [[0, 3]] });
    const same = [ex(0, 'POST', H, { id: '7' }), ex(1, 'DELETE', 'http://h:80/v1/o1/notes/7'), ex(2, 'GET', `${H}/7`)];
    expect(guarded(INSERT_THEN_GET, same)).toEqual({ kept: [], rejected: '1 /v1/o1/notes/7 0-2' });
  });

  it('spans the steps that address the item by a path value they give, literal or bound, not the table defaults', () => {
    // update then get on a note named by the step itself: a write on the same note between them is interference
    const steps: Step[] = [{ request: { operation: 'patchNote', params: { note_id: 'n-1' }, json: { title: 't' } } }, { request: { operation: 'getNote', params: { note_id: 'n-1' } } }];
    expect(guarded(steps, [ex(0, 'PATCH', `${H}/n-1`), ex(1, 'DELETE', `${H}/n-1`), ex(2, 'GET', `${H}/n-1`)]).kept).toEqual([]);
    expect(guarded(steps, [ex(0, 'PATCH', `${H}/n-1`), ex(1, 'DELETE', `${H}/n-2`), ex(2, 'GET', `${H}/n-1`)]).kept).toEqual([[0, 2]]);
    // two inserts under the profile's account address no item of the case: a write on the account between them is not watched
    const inserts: Step[] = [{ request: { operation: 'createNote', json: { title: 't' } } }, { request: { operation: 'createNote', json: { title: 't' } } }];
    expect(guarded(inserts, [ex(0, 'POST', H), ex(1, 'POST', `${H}/5/tags`), ex(2, 'POST', H)]).kept.length).toBe(1);
    expect(guarded(inserts, [ex(0, 'POST', H), ex(1, 'POST', `${H}/5/tags`), ex(2, 'POST', H)]).kept[0]).toEqual([0, 2]);
  });

  it('never counts the sequence’s own exchanges, and names the write, the item and the entries it falls between', () => {
    const steps: Step[] = [...INSERT_THEN_GET, { request: { operation: 'deleteNote', params: { note_id: '${note}' } } }, { request: { operation: 'getNote', params: { note_id: '${note}' } }, expect: { status: 404 } }];
    const recorded = [ex(0, 'POST', H, { id: '7' }), ex(1, 'GET', `${H}/7`), ex(2, 'DELETE', `${H}/7`), ex(3, 'GET', `${H}/7`)];
    expect(guarded(steps, recorded)).toEqual({ kept: [[0, 1, 2, 3]] });
    const match = matchRecording(TABLE, { file: 't.har', creator: 't', entries: 5, exchanges: [...recorded.slice(0, 3), ex(3, 'POST', `${H}/7:restore`), { ...ex(4, 'GET', `${H}/7`) }], problems: [] });
    const chosen = new Map<number, MatchedExchange>([0, 1, 2, 4].map((entry, step) => [step, [...match.byOperation.values()].flat().find((x) => x.recorded.index === entry) as MatchedExchange]));
    const w = interleavedWrite(patternsOf(steps), chosen, match.recorded);
    expect(w && { entry: w.write.index, method: w.write.method, item: w.item, between: w.between }).toEqual({ entry: 3, method: 'POST', item: '/v1/o1/notes/7', between: [0, 4] });
  });
});
