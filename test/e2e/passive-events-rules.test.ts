/**
 * The events suite's passive rules (suites/events/passive/) end to end: traffic recorded from the
 * reference services and the reference client (as test/e2e/passive-events.test.ts records it),
 * with reads of the platform a polite client makes — pages of a walk, a page without `page`,
 * each read of a list again with If-None-Match after its poll interval — judged by the CLI. The
 * recording passes every rule it can judge; planted deviations, one per kind of rule and side,
 * fail exactly their requirements. A page of more than 100 asked is recorded too, apart: it shows
 * the service's cap, and asking it is a client's deviation (EVENTS-CLIENT-PER-PAGE-MAX), so it is
 * judged with the recording on the service side, and planted with the client's deviations.
 *
 * Needs `npm run build` (the CLI and the client run from dist/).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_PLATFORM } from '../../reference/events/model/platform-seed-accounts.js';
import type { Handler } from '../../reference/events/server/answers.js';
import { PLATFORM_PREFIX } from '../../reference/events/server/routes.js';
import { startEventsServer } from '../../reference/events/server/server.js';
import { fromRoot } from '../../src/paths.js';
import { startRecordingProxy } from '../../src/targets/recording-proxy.js';
import { EVENTS_PASSIVE_RULES } from '../../suites/events/passive/index.js';
import { answerWith, entryOf, judgeHar } from '../helpers/har-judging.js';
import { expectReadmeRecordingCounts } from '../helpers/recording-counts.js';
import { failedRequirements } from '../helpers/verdicts.js';
import { runScript } from '../reference/merchant/recorder.js';
import { proxiedToHar } from '../targets/har/har-builder.js';
import { referenceClientEnv } from '../helpers/events-probes.js';
import { assertBuilt, statusMap, tempDir } from './cli.js';

const REFERENCE_CLIENT = fromRoot('dist', 'reference', 'events', 'client', 'main.js');
const PLATFORM_HEADERS = { authorization: `Bearer ${SEEDED_PLATFORM.token}`, 'x-platform-api-version': '2022-11-28', accept: 'application/vnd.platform+json' };
/** The poll interval the recorded platform asks for (seconds), short so the reads wait it out quickly. */
const INTERVAL = 1;
const shortPolls = (_id: string, reference: Handler): Handler => (call, ctx) => {
  const answer = reference(call, ctx);
  return answer.headers?.['x-poll-interval'] === undefined ? answer : { ...answer, headers: { ...answer.headers, 'x-poll-interval': String(INTERVAL) } };
};

/** A HAR entry as the plants below change it. */
interface Entry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: { name: string; value: string }[]; postData?: { mimeType: string; text: string } };
  response: { status: number; headers: { name: string; value: string }[]; content: { mimeType: string; text?: string; size: number } };
}

/** The platform reads, by what they are for: each a list of paths read in turn (one stream each). */
const p = SEEDED_PLATFORM;
const READS = {
  /** one read of each endpoint the client does not poll */
  singles: ['/events?per_page=10', `/networks/${p.owner}/${p.repo}/events?per_page=10`, `/users/${p.username}/events?per_page=10`, `/users/${p.username}/events/orgs/${p.org}?per_page=10`, `/users/${p.username}/events/public?per_page=10`, `/users/${p.username}/received_events?per_page=10`, `/users/${p.username}/received_events/public?per_page=10`, `/repos/${p.owner}/${p.repo}/issues/events?per_page=10`, `/repos/${p.owner}/${p.repo}/issues/${p.issueNumber}/events?per_page=10`],
  defaultSize: ['/events'],
  pageDefault: ['/events?per_page=4&page=1', '/events?per_page=4&page=2', '/events?per_page=4'],
  conditional: [`/orgs/${p.org}/events?per_page=2&page=1`, `/orgs/${p.org}/events?per_page=2&page=2`, `/orgs/${p.org}/events?per_page=2&page=1`],
  walk: [1, 2, 3, 4].map((n) => `/users/${p.username}/events/public?per_page=100&page=${n}`),
  /** read last, kept out of the reference recording (see above) */
  overMax: [`/orgs/${p.org}/events?per_page=200`],
} as const;

interface Recorded {
  /** The recording without the read of more than 100 events (`overMax`). */
  entries: Entry[];
  overMax: Entry;
  /** Index of each platform read by its path, in order. */
  reads: Record<keyof typeof READS, number[]>;
  /** The client's polls of the repository's events, its v2 pages, its post and its v1 pages, by entry index. */
  polls: number[];
  v2: number[];
  post: number;
  /** The client's request for one service's dependencies. */
  deps: number;
}

async function record(): Promise<Recorded> {
  const server = await startEventsServer({ override: shortPolls });
  const proxy = await startRecordingProxy(server.url, { bodyCap: 8 * 1024 * 1024 });
  try {
    const env: Record<string, string> = referenceClientEnv(proxy.url);
    const launch = await runScript(REFERENCE_CLIENT, [], env);
    expect(launch).toMatchObject({ code: 0, stderr: '' });
    const eventId = server.model.platform.firstIssueEventOf(p.owner, p.repo, p.issueNumber)?.id;
    const reads = {} as Record<keyof typeof READS, number[]>;
    // as a polite client reads: the ETag of the stream's last answer sent back, its interval waited
    const read = async (path: string, etag: string | undefined): Promise<string | undefined> => {
      const res = await request(`${proxy.url}${PLATFORM_PREFIX}${path}`, { headers: { ...PLATFORM_HEADERS, ...(etag ? { 'if-none-match': etag } : {}) } });
      await res.body.text();
      const tag = res.headers['etag'];
      return typeof tag === 'string' ? tag : etag;
    };
    for (const [kind, paths] of Object.entries({ ...READS, singles: [...READS.singles, `/repos/${p.owner}/${p.repo}/issues/events/${String(eventId)}`] })) {
      reads[kind as keyof typeof READS] = [];
      let etag: string | undefined;
      for (const [i, path] of paths.entries()) {
        if (i > 0 && kind !== 'singles') await sleep(INTERVAL * 1000 + 200);
        reads[kind as keyof typeof READS].push(proxy.exchanges.length);
        etag = await read(path, kind === 'singles' ? undefined : etag);
      }
    }
    const all = proxiedToHar(proxy.url, proxy.exchanges) as unknown as Entry[];
    const over = reads.overMax[0] ?? -1;
    if (over !== all.length - 1) throw new Error('the read of more than 100 events is not the last of the recording');
    const entries = all.slice(0, over);
    const at = (re: RegExp, method = 'GET'): number[] => entries.flatMap((e, i) => (e.request.method === method && re.test(new URL(e.request.url).pathname) ? [i] : []));
    return {
      entries,
      overMax: all[over] as Entry,
      reads,
      polls: at(/^\/platform\/repos\/[^/]+\/[^/]+\/events$/).filter((i) => i < (reads.singles[0] ?? 0)),
      v2: at(/^\/api\/v2\/events$/),
      post: at(/^\/api\/v1\/events$/, 'POST')[0] ?? -1,
      deps: at(/^\/api\/v1\/service_dependencies\/[^/]+$/)[0] ?? -1,
    };
  } finally {
    await proxy.stop();
    await server.stop();
  }
}

// ---------------------------------------------------------------- editing a recording
const header = (h: { name: string; value: string }[], name: string): string | undefined => h.find((x) => x.name.toLowerCase() === name)?.value;
function setHeader(h: { name: string; value: string }[], name: string, value: string | undefined): void {
  const i = h.findIndex((x) => x.name.toLowerCase() === name);
  if (i >= 0) h.splice(i, 1);
  if (value !== undefined) h.push({ name, value });
}
const bodyOf = (e: Entry): unknown => JSON.parse(e.response.content.text ?? 'null') as unknown;
function setBody(e: Entry, body: unknown): void {
  answerWith(e as never, e.response.status, body);
  setHeader(e.response.headers, 'content-length', undefined);
}
/** Platform events with IDs of their own, copies of `like`. */
const copies = (like: unknown, from: number, count: number): unknown[] => Array.from({ length: count }, (_, i) => ({ ...(like as object), id: String(900_000 + from + i) }));

/** Requirements each rule can judge from the reference recording (the rest: nothing of theirs recorded). */
const JUDGED = [
  'EVENTS-PLAT-NOT-MODIFIED',
  'EVENTS-PLAT-MODIFIED',
  'EVENTS-PLAT-ETAG',
  'EVENTS-PLAT-POLL-INTERVAL',
  'EVENTS-PLAT-PER-PAGE-DEFAULT',
  'EVENTS-PLAT-PAGE-DEFAULT',
  'EVENTS-PLAT-TIMELINE-30-DAYS',
  'EVENTS-PLAT-TIMELINE-300',
  'EVENTS-MON-V2-CURSOR',
  'EVENTS-MON-V2-SORT',
  'EVENTS-CLIENT-MON-KEYS',
  'EVENTS-CLIENT-DEPS-ENV',
  'EVENTS-CLIENT-POST-BODY',
  'EVENTS-CLIENT-BEARER',
  'EVENTS-CLIENT-ACCEPT',
  'EVENTS-CLIENT-VERSION-HEADER',
  'EVENTS-CLIENT-PER-PAGE-MAX',
  'EVENTS-CLIENT-IF-NONE-MATCH',
  'EVENTS-CLIENT-POLL-INTERVAL',
  'EVENTS-CLIENT-V2-CURSOR-PARAMS',
  'EVENTS-CLIENT-V1-PAGING',
].sort();
const RULED = [...new Set(Object.values(EVENTS_PASSIVE_RULES).flatMap((r) => r.requirements))].sort();

describe('passive target: the events suite judges a whole recording with rules of its own', () => {
  const tmp = tempDir('specgate-passive-events-rules-');
  let rec: Recorded;
  let reference: Awaited<ReturnType<typeof judgeHar>>;
  let probed: Awaited<ReturnType<typeof judgeHar>>;

  beforeAll(async () => {
    assertBuilt();
    rec = await record();
    reference = await judgeHar(tmp.dir, 'events', 'reference', rec.entries);
    probed = await judgeHar(tmp.dir, 'events', 'probed', [...rec.entries, rec.overMax], ['--side', 'server']);
  }, 120_000);
  afterAll(() => tmp.remove());

  it('the reference recording passes every rule it can judge; the others say what the recording lacks', async () => {
    expect(reference.stderr).toBe('');
    // the README's counts: what this recording of the reference client and services judged, what `list --passive` says a recording can settle, the gating requirements
    await expectReadmeRecordingCounts(tmp.dir, 'events', reference.report);
    const failing = reference.report.suites.flatMap((s) => s.cases).filter((c) => c.outcome === 'failed' || c.outcome === 'errored');
    expect(failing.flatMap((c) => c.failures.map((f) => `${c.id} ${f.requirement ?? ''}: ${f.message}`))).toEqual([]);
    expect(reference.code).toBe(0);
    expect(failedRequirements(reference.report)).toEqual([]);
    const status = statusMap(reference.report);
    // the client pages v1 while pages are full: the reference seeds more events in the last 18 hours than one page holds
    expect(RULED.filter((id) => status[id] === 'passed')).toEqual(JUDGED);
    const rules = reference.report.suites.flatMap((s) => s.cases).filter((c) => c.id.startsWith('passive:'));
    expect(rules.map((c) => c.id).sort()).toEqual(Object.keys(EVENTS_PASSIVE_RULES).map((n) => `passive:${n}`).sort());
    for (const c of rules) expect(['passed', 'skipped'], c.id).toContain(c.outcome);
    for (const id of RULED.filter((id) => !JUDGED.includes(id) && status[id] !== 'passed')) expect(reference.report.requirements.find((r) => r.id === id)?.reason, id).toMatch(/passive target: /);
  });

  it('with the read of more than 100 events, judged on the service side: the cap kept', () => {
    expect(probed.stderr).toBe('');
    expect(probed.code).toBe(0);
    expect(failedRequirements(probed.report)).toEqual([]);
    const status = statusMap(probed.report);
    expect(status['EVENTS-PLAT-PER-PAGE-MAX']).toBe('passed');
  });

  it('planted deviations, server and client side, fail exactly their requirements', async () => {
    const e = [...structuredClone(rec.entries), structuredClone(rec.overMax)];
    const [p1, p2, p3, p4] = rec.polls.map((i) => e[i] as Entry);
    const [v1st, v2nd, v3rd] = rec.v2.map((i) => e[i] as Entry);
    if (!p1 || !p2 || !p3 || !p4 || !v1st || !v2nd || !v3rd) throw new Error('the recording lacks the client polls or v2 pages');
    const read = (kind: keyof typeof READS, n: number): Entry => e[rec.reads[kind][n] ?? -1] as Entry;
    const answerOf = (from: Entry, to: Entry): void => {
      to.response = structuredClone(from.response);
    };
    // NOT-MODIFIED: the second poll (its If-None-Match the first answer's ETag) answered 200 with the first answer again
    answerOf(p1, p2);
    // MODIFIED: page 1 asked again with the ETag of page 2, answered 304
    const again = read('conditional', 2);
    again.response = { ...again.response, status: 304, content: { mimeType: '', size: 0 } };
    // ETAG, POLL-INTERVAL: one 200 each without the header
    setHeader(read('singles', 6).response.headers, 'etag', undefined);
    setHeader(read('singles', 4).response.headers, 'x-poll-interval', undefined);
    // PER-PAGE-DEFAULT: /events without per_page answers 10 events while more exist
    const dflt = read('defaultSize', 0);
    setBody(dflt, (bodyOf(dflt) as unknown[]).slice(0, 10));
    setHeader(dflt.response.headers, 'link', `<${dflt.request.url}?page=2>; rel="next"`);
    // PER-PAGE-MAX: per_page=200 answered 101 events; the client's PER-PAGE-MAX: asked at all
    const over = read('overMax', 0);
    const overItems = bodyOf(over) as unknown[];
    setBody(over, [...overItems, ...copies(overItems[0], 0, 101 - overItems.length)]);
    // PAGE-DEFAULT: the list without page answers page 2
    answerOf(read('pageDefault', 1), read('pageDefault', 2));
    // TIMELINE-30-DAYS: an event 40 days older than the answer
    const aged = read('singles', 2);
    const agedItems = bodyOf(aged) as Record<string, unknown>[];
    const date = Date.parse(header(aged.response.headers, 'date') ?? '');
    setBody(aged, [{ ...agedItems[0], created_at: new Date(date - 40 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z') }, ...agedItems.slice(1)]);
    // TIMELINE-300: pages 2 to 4 of a walk hold 100 more events each
    const walkItems = bodyOf(read('walk', 0)) as unknown[];
    for (const n of [1, 2, 3]) setBody(read('walk', n), copies(walkItems[0], n * 1000, 100));
    // V2-SORT: the first v2 page oldest first; V2-CURSOR: the second repeats the first's newest
    const first = bodyOf(v1st) as { data: unknown[] };
    const second = bodyOf(v2nd) as { data: unknown[] };
    setBody(v2nd, { ...second, data: [first.data[0], ...second.data.slice(1)] });
    setBody(v1st, { ...first, data: [...first.data].reverse() });
    // DATE-WINDOW: an event posted 20 hours before the answer, stored with that date
    const post = e[rec.post] as Entry;
    const posted = Math.floor(Date.parse(header(post.response.headers, 'date') ?? '') / 1000) - 20 * 3600;
    const postBody = JSON.parse(post.request.postData?.text ?? '{}') as Record<string, unknown>;
    post.request.postData = { mimeType: 'application/json', text: JSON.stringify({ ...postBody, date_happened: posted, related_event_id: '7' }) };
    const stored = bodyOf(post) as { event: Record<string, unknown> };
    setBody(post, { ...stored, event: { ...stored.event, date_happened: posted } });
    // API-KEY-REQUIRED, APP-KEY-REQUIRED (and the client's MON-KEYS): the last v2 page asked without keys, answered 200;
    // V2-CURSOR-PARAMS: with another page[limit] than the page its cursor came from
    setHeader(v3rd.request.headers, 'mon-api-key', undefined);
    setHeader(v3rd.request.headers, 'mon-application-key', undefined);
    v3rd.request.url = v3rd.request.url.replace(/page%5Blimit%5D=5|page\[limit\]=5/, 'page%5Blimit%5D=6');
    // ERROR-BODY: the IP ranges answered 429 with another body
    const ranges = e.find((x) => new URL(x.request.url).pathname.endsWith('/ip-ranges/')) as Entry;
    answerWith(ranges as never, 429, { message: 'slow down' });
    // client: BEARER, ACCEPT, VERSION-HEADER on the last poll; IF-NONE-MATCH without quotes on the third (answered 200 as the
    // reference answers an unquoted tag); POLL-INTERVAL: the last poll 100 ms after the third's answer
    setHeader(p4.request.headers, 'authorization', `token ${SEEDED_PLATFORM.token}`);
    setHeader(p4.request.headers, 'accept', 'application/json');
    setHeader(p4.request.headers, 'x-platform-api-version', 'latest');
    setHeader(p3.request.headers, 'if-none-match', (header(p3.request.headers, 'if-none-match') ?? '').replace(/"/g, ''));
    answerOf(p1, p3);
    p4.startedDateTime = new Date(Date.parse(p3.startedDateTime) + p3.time + 100).toISOString();
    // DEPS-ENV: the client's request for one service's dependencies without env, refused as the reference refuses it
    const deps = e[rec.deps] as Entry;
    const depsUrl = new URL(deps.request.url);
    depsUrl.searchParams.delete('env');
    deps.request.url = depsUrl.toString();
    deps.response.status = 400;
    setBody(deps, { errors: ['env is required'] });

    // V1-PAGING: the client's second v1 page ends a second after the first page's last event, not at it
    const v1Pages = e.filter((x) => x.request.method === 'GET' && new URL(x.request.url).pathname.endsWith('/api/v1/events'));
    const v1Next = v1Pages[1];
    if (!v1Next) throw new Error('the recording lacks a second v1 page of the client');
    const v1Url = new URL(v1Next.request.url);
    v1Url.searchParams.set('end', String(Number(v1Url.searchParams.get('end')) + 1));
    v1Next.request.url = v1Url.toString();

    // every rule's requirement the reference recording judges, and those only a planted recording gives something to judge
    const planted = [...JUDGED, 'EVENTS-PLAT-PER-PAGE-MAX', 'EVENTS-MON-DATE-WINDOW', 'EVENTS-MON-API-KEY-REQUIRED', 'EVENTS-MON-APP-KEY-REQUIRED', 'EVENTS-MON-ERROR-BODY'].sort();
    const run = await judgeHar(tmp.dir, 'events', 'planted', e);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(failedRequirements(run.report)).toEqual(planted);
    // each found by the rules themselves
    const byRules = new Set(run.report.suites.flatMap((s) => s.cases).filter((c) => c.id.startsWith('passive:')).flatMap((c) => c.failures.map((f) => f.requirement)));
    expect([...byRules].sort()).toEqual(planted);
    // everything else as in the reference recording
    const before = statusMap(reference.report);
    const after = statusMap(run.report);
    for (const id of Object.keys(before)) if (!planted.includes(id)) expect(after[id], id).toBe(before[id]);
  }, 60_000);
});
