/**
 * `--target har:<file>` end to end on the events suite (spec 002 parts G and H), with real
 * traffic: the reference events services run behind the recording proxy, the bundled reference
 * events client is launched against the proxy as a process, the platform endpoints it does not
 * read are then read through the same proxy, and what the proxy saw is written as HAR 1.2 and
 * judged by the CLI.
 *
 * Passive mode takes no profile, so no base URL resolves: the monitoring API's paths fit the
 * table as recorded (`/api/v1/events`), and the platform's are fitted below their leading
 * segments (`/platform/repos/...` fits `/repos/...`). The IP ranges, the root `/` of a base of
 * their own, fit the operation whose path is `/` because the recorded path ends in `/`.
 *
 * Needs `npm run build` (the CLI and the client run from dist/).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MON_API_KEY, MON_APP_KEY } from '../../reference/events/model/monitor-keys.js';
import { SEEDED_PLATFORM } from '../../reference/events/model/platform-seed-accounts.js';
import type { Handler } from '../../reference/events/server/answers.js';
import { IP_RANGES_PREFIX, PLATFORM_PREFIX } from '../../reference/events/server/routes.js';
import { startEventsServer } from '../../reference/events/server/server.js';
import { fromRoot } from '../../src/paths.js';
import { startRecordingProxy } from '../../src/targets/recording-proxy.js';
import { suite } from '../../suites/events/index.js';
import { EVENTS_PASSIVE_RULES } from '../../suites/events/passive/index.js';
import { answerWith, entryOf, indexOf, judgeHar, pathOf, reasonOf } from '../helpers/har-judging.js';
import { casesJudgedFromRecording, passiveStatuses } from '../helpers/passive-cases.js';
import { DEPS, PROBES, referenceClientEnv } from '../helpers/events-probes.js';
import { loadedSuite } from '../helpers/suite-facts.js';
import { failedRequirements } from '../helpers/verdicts.js';
import { runScript, type Launch } from '../reference/merchant/recorder.js';
import { proxiedToHar, type HarEntryShape } from '../targets/har/har-builder.js';
import { assertBuilt, caseOf, statusMap, tempDir, type JsonReport } from './cli.js';

const REFERENCE_CLIENT = fromRoot('dist', 'reference', 'events', 'client', 'main.js');

/** What a case that must send requests of its own is skipped with. */
const NEEDS_LIVE = 'passive target: needs live requests';

/** The headers the platform's table rows require, as a client of the platform sends them. */
const PLATFORM_HEADERS = { authorization: `Bearer ${SEEDED_PLATFORM.token}`, 'x-platform-api-version': '2022-11-28', accept: 'application/vnd.platform+json' };

const events = loadedSuite(suite);

/**
 * What the recording below earns: the cases that judge single exchanges of an operation the
 * recording reaches pass (the platform endpoints' own cases), the excluded requirements are
 * excluded, every other one is untested. The list and event shapes are judged on events a case
 * posts or reads itself (their evidence), so a recording leaves them untested.
 */
/**
 * The requirements the suite's passive rules judge from the whole recording are left to
 * passive-events-rules.test.ts: here, the verdicts of the cases.
 */
const RULED = new Set(Object.values(EVENTS_PASSIVE_RULES).flatMap((r) => r.requirements));
const CLIENT = new Set(events.requirements.filter((r) => r.side === 'client').map((r) => r.id));
const byCases = <V>(statuses: Record<string, V>): Record<string, V> => Object.fromEntries(Object.entries(statuses).filter(([id]) => !RULED.has(id) && !CLIENT.has(id)));
const EXPECTED = byCases(passiveStatuses(events));
const PASSED = Object.keys(EXPECTED).filter((id) => EXPECTED[id] === 'passed').sort();

/**
 * The reference platform asks for a poll every 60 seconds, which the client waits out (up to
 * 10 s a poll); one second keeps its four polls short, as the client-side cases' played platform does.
 */
const shortPolls = (_id: string, reference: Handler): Handler => (call, ctx) => {
  const answer = reference(call, ctx);
  return answer.headers?.['x-poll-interval'] === undefined ? answer : { ...answer, headers: { ...answer.headers, 'x-poll-interval': '1' } };
};

interface Recorded {
  launch: Launch;
  /** The client's exchanges and then the platform reads, as HAR entries. */
  entries: Record<string, unknown>[];
  /** How many of the entries the client sent. */
  byClient: number;
  /** How many the client and the platform reads sent (the probes follow). */
  byReads: number;
}


/**
 * Starts fresh reference services behind the recording proxy, runs the reference client against
 * the proxy with the launch contract's variables, then reads each platform endpoint the client
 * does not poll through the proxy, as a platform client would.
 */
async function record(): Promise<Recorded> {
  const server = await startEventsServer({ override: shortPolls });
  // the platform polls ask 100 events a page: bodies are kept whole
  const proxy = await startRecordingProxy(server.url, { bodyCap: 8 * 1024 * 1024 });
  try {
    const p = SEEDED_PLATFORM;
    const env: Record<string, string> = referenceClientEnv(proxy.url);
    const launch = await runScript(REFERENCE_CLIENT, [], env);
    const byClient = proxy.exchanges.length;
    const eventId = server.model.platform.firstIssueEventOf(p.owner, p.repo, p.issueNumber)?.id;
    if (eventId === undefined) throw new Error(`the reference platform has no issue event of ${p.owner}/${p.repo}#${p.issueNumber}`);
    const repo = `/repos/${p.owner}/${p.repo}`;
    // pages of 10: the proxy keeps 64 KB of an answer, less than a page of 30 issue events
    const paths = [
      '/events',
      `/networks/${p.owner}/${p.repo}/events`,
      `/orgs/${p.org}/events`,
      `/users/${p.username}/events`,
      `/users/${p.username}/events/orgs/${p.org}`,
      `/users/${p.username}/events/public`,
      `/users/${p.username}/received_events`,
      `/users/${p.username}/received_events/public`,
      `${repo}/issues/events`,
      `${repo}/issues/events/${String(eventId)}`,
      `${repo}/issues/${p.issueNumber}/events`,
    ];
    for (const path of paths) {
      const query = /\/\d+$/.test(path) ? '' : '?per_page=10';
      await (await request(`${proxy.url}${PLATFORM_PREFIX}${path}${query}`, { headers: PLATFORM_HEADERS })).body.text();
    }
    const byReads = proxy.exchanges.length;
    for (const probe of PROBES) await (await request(`${proxy.url}${probe.path}`, { headers: probe.headers })).body.text();
    return { launch, entries: proxiedToHar(proxy.url, proxy.exchanges), byClient, byReads };
  } finally {
    await proxy.stop();
    await server.stop();
  }
}

/**
 * The server side: the probes are requests no conformant client sends (keys left out on
 * purpose), so this recording's client side is not what these tests judge (the client rules
 * are passive-events-rules.test.ts's).
 */
const judge = (dir: string, name: string, entries: readonly unknown[]): ReturnType<typeof judgeHar> => judgeHar(dir, 'events', name, entries, ['--side', 'server']);
const passedIds = (report: JsonReport): string[] => report.requirements.filter((r) => r.status === 'passed' && !RULED.has(r.id)).map((r) => r.id).sort();
const URL_RE = 'http://127\\.0\\.0\\.1:\\d+';

/** The recorded requests as `METHOD /path`, with how often each was sent. */
function requestCounts(entries: readonly unknown[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of entries) {
    const key = `${(e as HarEntryShape).request.method} ${pathOf(e)}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/** A HAR entry with its headers, as the recording proxy writes them. */
interface RecordedEntry {
  request: { url: string; headers: { name: string; value: string }[] };
  response: { status: number; headers: { name: string; value: string }[]; content: { mimeType: string; text?: string; size: number } };
}

/** Plants an answer of plain text in place of the recorded one. */
function answerPlain(entry: RecordedEntry, status: number, text: string): void {
  entry.response.status = status;
  entry.response.headers = [...entry.response.headers.filter((h) => !['content-type', 'content-length'].includes(h.name.toLowerCase())), { name: 'content-type', value: 'text/plain' }];
  entry.response.content = { size: text.length, mimeType: 'text/plain', text };
}

describe('passive target: events traffic recorded from the reference client and platform reads', () => {
  const tmp = tempDir('specgate-passive-events-');
  let rec: Recorded;
  /** The unchanged recording judged by the CLI (two tests read it). */
  let reference: Awaited<ReturnType<typeof judge>>;

  beforeAll(async () => {
    assertBuilt();
    rec = await record();
    reference = await judge(tmp.dir, 'reference', rec.entries);
  }, 60_000);
  afterAll(() => tmp.remove());

  it('the reference client reaches the monitoring API and polls one platform stream; the reads reach the other platform endpoints', () => {
    expect(rec.launch).toMatchObject({ code: 0, stderr: '' });
    // the client reads the neighbours of the first service the map names, whichever that is
    const byClient = Object.fromEntries(Object.entries(requestCounts(rec.entries.slice(0, rec.byClient))).map(([k, n]) => [k.replace(/^(GET \/api\/v1\/service_dependencies)\/[^/?]+$/, '$1/{service}'), n]));
    // the v1 list is paged while pages are full: how many pages depends on how many events the last 18 hours hold
    const v1Pages = byClient['GET /api/v1/events'] ?? 0;
    expect(v1Pages).toBeGreaterThanOrEqual(1);
    expect(byClient).toEqual({
      'POST /api/v1/events': 1,
      'GET /ip-ranges/': 1,
      'GET /api/v1/events': v1Pages,
      'GET /api/v1/service_dependencies': 1,
      'GET /api/v1/service_dependencies/{service}': 1,
      'GET /api/v2/events': 3,
      [`GET ${PLATFORM_PREFIX}/repos/${SEEDED_PLATFORM.owner}/${SEEDED_PLATFORM.repo}/events`]: 4,
    });
    const reads = rec.entries.slice(rec.byClient, rec.byReads) as unknown as HarEntryShape[];
    expect(reads).toHaveLength(11);
    expect(reads.map((e) => e.response.status)).toEqual(Array.from({ length: 11 }, () => 200));
  });

  it('judged by the CLI: every endpoint reached is served, every other requirement is skipped with the reason', () => {
    const run = reference;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const n = rec.entries.length;
    const props = run.report.suites[0]?.properties ?? {};
    // the platform's requests carry the bearer token, the version header and the media type, the
    // monitoring API's both keys: all are judged (none is listed as lacking headers)
    expect(props).toMatchObject({ mode: 'passive', exchanges: String(n), matched: String(n) });
    expect(props).not.toHaveProperty('unmatched');
    // only the probes sent without a key or the platform's credentials lack headers: notes, not failures
    const lacking = String(props['requestsLackingHeaders']).split('\n');
    expect(lacking).toHaveLength(9);
    for (const line of lacking) expect(Number(/^entry (\d+) /.exec(line)?.[1])).toBeGreaterThanOrEqual(rec.byReads);
    expect(PASSED.length).toBeGreaterThan(0);
    expect(passedIds(run.report)).toEqual(PASSED);
    expect(byCases(statusMap(run.report))).toEqual(EXPECTED);
    const untested = run.report.requirements.filter((r) => r.status === 'untested' && !RULED.has(r.id));
    expect(untested.length).toBeGreaterThan(0);
    for (const r of untested) expect(r.reason, r.id).toBe(`skipped: ${NEEDS_LIVE}`);
    const excluded = run.report.requirements.filter((r) => r.status === 'excluded');
    expect(excluded.map((r) => r.id)).toEqual(events.requirements.filter((r) => r.excluded !== undefined).map((r) => r.id));
    const all = run.report.suites.flatMap((s) => s.cases);
    expect(all.filter((c) => c.outcome === 'errored' || c.outcome === 'failed')).toEqual([]);
    const cases = all.filter((c) => !c.id.startsWith('passive:'));
    const passing = cases.filter((c) => c.outcome === 'passed').map((c) => c.id).sort();
    expect(passing).toEqual(casesJudgedFromRecording(events).sort());
    for (const c of cases) if (c.outcome !== 'passed') expect(c, c.id).toMatchObject({ outcome: 'skipped', reason: NEEDS_LIVE });
  });

  // the operation's own base (${ip_ranges_url}) is not known to a recording, and its path is the
  // root `/`: a recorded path that ends in `/` fits it once no longer path does
  it('the IP ranges requests (<ip_ranges_url>/) fit the root operation; the cases that opted in judge them', () => {
    const run = reference;
    expect(run.stdout).not.toMatch(/fit no operation/);
    for (const id of ['ip-ranges', 'ip-ranges-no-keys']) expect(caseOf(run.report, id), id).toMatchObject({ outcome: 'passed' });
    expect(statusMap(run.report)).toMatchObject({ 'EVENTS-MON-IPRANGES-SHAPE': 'passed', 'EVENTS-MON-IPRANGES-NO-KEYS': 'passed' });
  });

  it('a case that opted in, without its requests in the recording, is untested with what the recording lacks', async () => {
    const run = await judge(tmp.dir, 'no-probes', rec.entries.slice(0, rec.byReads));
    expect(run.code).toBe(0);
    expect(caseOf(run.report, 'ip-ranges-no-keys')).toMatchObject({ outcome: 'skipped', reason: 'passive target: no GET ipRanges without credentials, without query, with accept was recorded' });
    // the requirement's reason is what the rule over the whole recording found lacking (the case above says its own)
    expect(reasonOf(run.report, 'EVENTS-MON-API-KEY-REQUIRED')).toBe('nothing to judge: passive target: no dependency or event list request without MON-API-KEY was recorded (case passive:mon-keys)');
  });

  it('planted deviations in the probes fail exactly the requirements of the cases that judge them', async () => {
    const planted = structuredClone(rec.entries);
    const probe = (path: string, has: (h: Record<string, string>) => boolean): number =>
      planted.findIndex((e, i) => {
        const entry = e as unknown as RecordedEntry;
        const headers = Object.fromEntries(entry.request.headers.map((h) => [h.name.toLowerCase(), h.value]));
        return i >= rec.byReads && `${pathOf(e)}${new URL(entry.request.url).search}` === path && has(headers);
      });
    // (a) the IP ranges asked for with keys answer without a prefix group
    const ranges = probe(`${IP_RANGES_PREFIX}/`, (h) => h['mon-api-key'] !== undefined);
    const body = JSON.parse(String((planted[ranges] as unknown as HarEntryShape).response.content?.text)) as Record<string, unknown>;
    const group = Object.keys(body).find((k) => k !== 'version' && k !== 'modified') as string;
    delete body[group];
    answerWith(entryOf(planted, ranges), 200, body);
    // (b) the version 2 list without MON-API-KEY is answered 200
    const noKey = probe('/api/v2/events', (h) => h['mon-api-key'] === undefined);
    answerWith(entryOf(planted, noKey), 200, { data: [], links: {}, meta: { page: {} } });
    // (c) the dependency map without env is refused in plain text
    const noEnv = probe(DEPS, () => true);
    answerPlain(planted[noEnv] as unknown as RecordedEntry, 400, 'env is required');
    const run = await judge(tmp.dir, 'planted-probes', planted);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(failedRequirements(run.report)).toEqual(['EVENTS-MON-API-KEY-REQUIRED', 'EVENTS-MON-DEPS-ENV-REQUIRED', 'EVENTS-MON-IPRANGES-SHAPE']);
    expect(caseOf(run.report, 'ip-ranges').failures.map((f) => f.message)).toEqual([expect.stringMatching(new RegExp(`^GET ${URL_RE}/ip-ranges/ \\(entry ${ranges}, step 1\\): `))]);
    expect(caseOf(run.report, 'api-key-required').failures.map((f) => f.message)).toEqual([expect.stringMatching(new RegExp(`^GET ${URL_RE}/api/v2/events \\(entry ${noKey}, step 4\\): status: `))]);
    expect(caseOf(run.report, 'deps-env-required').failures.map((f) => f.message)).toEqual([expect.stringMatching(new RegExp(`\\(entry ${noEnv}, step 1\\): `))]);
    // the failing exchanges are in the report with the recorded keys masked
    const text = readFileSync(join(tmp.dir, 'planted-probes.json'), 'utf8');
    for (const secret of [MON_API_KEY, MON_APP_KEY]) expect(text).not.toContain(secret);
  });

  it('a planted 500 fails exactly its requirement; a request with a method its path lacks is stray traffic, not a failure', async () => {
    const planted = structuredClone(rec.entries);
    const repoEvents = /^\/platform\/repos\/[^/]+\/[^/]+\/events$/;
    const org = indexOf(planted, 'GET', /^\/platform\/orgs\/[^/]+\/events$/);
    // the second of the client's four polls: the other three still reach the operation
    const poll = planted.findIndex((e, i) => i > indexOf(planted, 'GET', repoEvents) && repoEvents.test(pathOf(e)));
    // (a) a platform endpoint answers 500, with the platform's error body
    answerWith(entryOf(planted, org), 500, { message: 'planted 500', documentation_url: 'https://docs.platform.example/rest' });
    // (b) one poll recorded as a DELETE
    entryOf(planted, poll).request.method = 'DELETE';
    const run = await judge(tmp.dir, 'planted', planted);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(failedRequirements(run.report)).toEqual(['EVENTS-PLAT-OP-ORG-EVENTS']);
    expect(byCases(statusMap(run.report))).toEqual({ ...EXPECTED, 'EVENTS-PLAT-OP-ORG-EVENTS': 'failed' });
    const orgFailures = caseOf(run.report, 'op-org-events').failures;
    expect(orgFailures.map((f) => f.message)).toEqual([expect.stringMatching(new RegExp(`^GET ${URL_RE}/platform/orgs/acme-tools/events\\?per_page=10 \\(entry ${org}\\): answered 500, a status operation orgEvents does not list \\(it answers 200, 304\\)$`))]);
    expect(run.stdout).toMatch(
      new RegExp(`1 recorded exchange\\(s\\) fit no operation of suite events and were not judged: entry ${poll} DELETE ${URL_RE}/platform/repos/acme-tools/widget/events(\\?per_page=100)? \\(DELETE is not an operation on /repos/acme-tools/widget/events \\(the table lists GET\\)\\)`),
    );
    expect(run.report.suites[0]?.properties).toMatchObject({ exchanges: String(planted.length), matched: String(planted.length - 1) });
    expect(statusMap(run.report)['EVENTS-PLAT-OP-REPO-EVENTS']).toBe('passed');
    // the failing exchanges are in the report, with the recorded credentials masked
    const text = readFileSync(join(tmp.dir, 'planted.json'), 'utf8');
    expect(text).toMatch(/"authorization": *"\*\*\*"/);
    for (const secret of [SEEDED_PLATFORM.token, MON_API_KEY, MON_APP_KEY]) {
      expect(text).not.toContain(secret);
      expect(run.stdout).not.toContain(secret);
    }
  });
});
