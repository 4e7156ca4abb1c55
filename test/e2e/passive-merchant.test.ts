/**
 * `--target har:<file>` end to end on the merchant suite, with real traffic: the reference
 * merchant service runs behind the recording proxy, a real client (the bundled reference client,
 * then the published `@googleapis/content` library through its launcher) is launched against the
 * proxy as a process, and what the proxy saw is written as HAR 1.2 and judged by the CLI.
 *
 * Passive mode takes no profile, so nothing resolves the API base (`${merchant_url}/content/v2.1`):
 * each recorded path is matched below the base's literal end (`/content/v2.1`). A user gives the
 * HAR file and nothing else.
 *
 * Needs `npm run build` (the CLI and the clients run from dist/).
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantClientEnvVars } from '../../reference/merchant/client/contract.js';
import { startMerchantServer } from '../../reference/merchant/server/server.js';
import { fromRoot } from '../../src/paths.js';
import { startRecordingProxy, type ProxiedExchange } from '../../src/targets/recording-proxy.js';
import { suite } from '../../suites/merchant/index.js';
import { answerWith, entryOf, indexOf, judgeHar, reasonOf } from '../helpers/har-judging.js';
import { casesJudgedFromRecording, passiveRuleCases, passiveStatuses, ruledRequirements } from '../helpers/passive-cases.js';
import { declarePeer, moduleAvailable, requirePeer } from '../helpers/peer.js';
import { expectReadmeRecordingCounts } from '../helpers/recording-counts.js';
import { loadedSuite } from '../helpers/suite-facts.js';
import { failedRequirements } from '../helpers/verdicts.js';
import { merchantRoutes, runScript, type Launch } from '../reference/merchant/recorder.js';
import { opRequirement as reqId } from '../suites/merchant/run-merchant.js';
import { proxiedToHar, type HarEntryShape } from '../targets/har/har-builder.js';
import { assertBuilt, caseOf, statusMap, tempDir, type JsonReport } from './cli.js';

const REFERENCE_CLIENT = fromRoot('dist', 'reference', 'merchant', 'client', 'main.js');
const LIBRARY_LAUNCHER = fromRoot('dist', 'test', 'fixtures', 'merchant', 'peers', 'content-client.js');
const library = requirePeer('@googleapis/content', moduleAvailable('@googleapis/content'), 'npm install');
declarePeer(library);

/** What a case that must send requests of its own is skipped with. */
const NEEDS_LIVE = 'passive target: needs live requests';
/** The two library methods whose path segments the spec's tables name neutrally. */
const LIBRARY_UNCALLED = ['liasettings.getaccessibleprofileaccounts', 'liasettings.requestprofileaccess'];
const OPERATIONS = merchantRoutes().map((r) => r.id);
/** Operations the published library has no method for (it has no returnaddress or returnpolicy groups). */
const LIBRARY_LACKS = OPERATIONS.filter((op) => /^returnaddress\.|^returnpolicy\./.test(op));

const merchant = loadedSuite(suite);

interface Recorded {
  launch: Launch;
  entries: Record<string, unknown>[];
  /** Real answers of the same service after the client ended (filled by `after`). */
  after: Record<string, unknown>[];
}

/**
 * Starts a fresh reference service behind the recording proxy, runs `client` against the proxy
 * with the launch contract's variables, then lets `after` send more requests through the proxy.
 */
async function record(client: string, after?: (proxyUrl: string, sent: readonly ProxiedExchange[]) => Promise<void>): Promise<Recorded> {
  const server = await startMerchantServer();
  const proxy = await startRecordingProxy(server.url);
  try {
    const launch = await runScript(client, [], merchantClientEnvVars({ url: proxy.url, merchantId: server.merchantId, cssGroupId: server.cssGroupId, cssDomainId: server.cssDomainId }));
    const sent = proxy.exchanges.length;
    if (after) await after(proxy.url, proxy.exchanges.slice());
    return { launch, entries: proxiedToHar(proxy.url, proxy.exchanges.slice(0, sent)), after: proxiedToHar(proxy.url, proxy.exchanges.slice(sent)) };
  } finally {
    await proxy.stop();
    await server.stop();
  }
}

/** Sends GET and DELETE again to the product the client deleted: the service answers both as for an item that is gone. */
async function readDeletedProduct(proxyUrl: string, sent: readonly ProxiedExchange[]): Promise<void> {
  const deleted = sent.find((x) => x.method === 'DELETE' && /\/products\/[^/]+$/.test(x.url));
  if (!deleted) throw new Error('the reference client sent no products.delete');
  for (const method of ['GET', 'DELETE'] as const) await (await request(`${proxyUrl}${deleted.url}`, { method })).body.text();
}

const judge = (dir: string, name: string, entries: readonly unknown[]): ReturnType<typeof judgeHar> => judgeHar(dir, 'merchant', name, entries);

/** A case of the JSON report with what a judged case carries: its requirements, evidence and the exchanges it stood on. */
function judgedCase(report: JsonReport, id: string): ReturnType<typeof caseOf> & { requirements: string[]; evidence?: Record<string, number>; exchanges: { request: { url: string } }[] } {
  return caseOf(report, id) as ReturnType<typeof caseOf> & { requirements: string[]; evidence?: Record<string, number>; exchanges: { request: { url: string } }[] };
}

/** An error answer as a service would send it: the status and a Google-style error body. */
function answerError(entry: HarEntryShape, status: number): void {
  answerWith(entry, status, { error: { code: status, message: `planted ${status}` } });
}

/**
 * The statuses a conformant recording earns (test/helpers/passive-cases.ts): each requirement a
 * case judging single exchanges of a reached operation covers passes, and so does each
 * requirement of the suite's passive rules (the client side, judged from the recorded requests);
 * the excluded ones are excluded, every other one is untested (the cases written out as request
 * sequences, those that need a state set up first).
 */
const expectedStatuses = (reached: ReadonlySet<string>, sequenced?: (caseId: string) => boolean): Record<string, string> => passiveStatuses(merchant, (op) => reached.has(op), CLIENT_SIDE, sequenced);
/** The client-side requirements, judged by the suite's passive rules from the recorded requests. */
const CLIENT_SIDE = ruledRequirements(suite);
const RULE_CASES = passiveRuleCases(suite);
/** The cases of request sequences that opted in: a recording judges them only where it holds a sequence with no other write on the item between its steps. */
const STATEFUL = merchant.cases.filter((c) => c.passive === 'judge').map((c) => c.id);

describe('passive target: merchant traffic recorded from real clients of the reference service', () => {
  const tmp = tempDir('specgate-passive-merchant-');
  const ops = OPERATIONS;
  let reference: Recorded;
  let published: Recorded | undefined;

  beforeAll(async () => {
    assertBuilt();
    reference = await record(REFERENCE_CLIENT, readDeletedProduct);
    if (!library.skip) published = await record(LIBRARY_LAUNCHER);
  }, 120_000);
  afterAll(() => tmp.remove());

  it('the reference client: every operation it reached is served, the cases that need live requests are skipped with the reason', async () => {
    expect(reference.launch.code).toBe(0);
    // the reference client calls every operation once
    expect(reference.entries).toHaveLength(ops.length);
    // what the service answers for the product once the client deleted it (recorded for the 4xx test below)
    expect(reference.after.map((e) => (e as unknown as HarEntryShape).response.status)).toEqual([404, 404]);
    const run = await judge(tmp.dir, 'reference', reference.entries);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // the README's counts: what this recording judged, what `list --passive` says a recording can settle, the gating requirements
    await expectReadmeRecordingCounts(tmp.dir, 'merchant', run.report);
    expect(run.stdout).not.toMatch(/warning/);
    const n = String(reference.entries.length);
    expect(run.report.suites[0]?.properties).toMatchObject({ mode: 'passive', exchanges: n, matched: n });
    expect(run.report.suites[0]?.properties).not.toHaveProperty('unmatched');
    const expected = expectedStatuses(new Set(ops));
    expect(Object.values(expected)).toContain('passed');
    expect(statusMap(run.report)).toEqual(expected);
    // every operation is reached: what is untested needs live requests
    for (const [id, status] of Object.entries(expected)) if (status === 'untested') expect(reasonOf(run.report, id), id).toBe(`skipped: ${NEEDS_LIVE}`);
    const cases = run.report.suites.flatMap((s) => s.cases);
    expect(cases.filter((c) => c.outcome === 'errored' || c.outcome === 'failed')).toEqual([]);
    const judged = new Set([...casesJudgedFromRecording(merchant), ...RULE_CASES]);
    expect(CLIENT_SIDE).toEqual(merchant.requirements.filter((r) => r.side === 'client').map((r) => r.id));
    for (const id of CLIENT_SIDE) expect(statusMap(run.report)[id], id).toBe('passed');
    expect(caseOf(run.report, 'passive:client-requests')).toMatchObject({ outcome: 'passed', evidence: Object.fromEntries(CLIENT_SIDE.map((id) => [id, ops.length])) });
    for (const c of cases) {
      if (judged.has(c.id)) expect(c, c.id).toMatchObject({ outcome: 'passed' });
      else expect(c, c.id).toMatchObject({ outcome: 'skipped', reason: NEEDS_LIVE });
    }
  });

  it.skipIf(library.skip)('@googleapis/content: its calls are served; its two brand-word requests fit no operation, which fails the client route rule only', async () => {
    const rec = published as Recorded;
    expect(rec.launch.code).toBe(0);
    expect(rec.entries).toHaveLength(125);
    const run = await judge(tmp.dir, 'library', rec.entries);
    expect(run.stderr).toBe('');
    // without a profile's paths: mapping, the original API's words fit no path of the tables (CLIENT-FINDINGS.md)
    expect(run.code).toBe(1);
    const brand = [indexOf(rec.entries, 'GET', /\/liasettings\/\d+\/accessiblegmbaccounts$/), indexOf(rec.entries, 'POST', /\/liasettings\/\d+\/requestgmbaccess$/)];
    expect(run.stdout).toMatch(
      new RegExp(`warning: \\S+library\\.har: 2 recorded exchange\\(s\\) fit no operation of suite merchant and were not judged: entry ${brand[0]} GET http://127\\.0\\.0\\.1:\\d+/content/v2\\.1/\\d+/liasettings/\\d+/accessiblegmbaccounts\\?key=\\S+ \\(no operation has a path that fits [^)]+\\); entry ${brand[1]} POST \\S+/requestgmbaccess\\?\\S+ \\(no operation has a path`),
    );
    const props = run.report.suites[0]?.properties ?? {};
    expect(props).toMatchObject({ mode: 'passive', exchanges: '125', matched: '123' });
    expect((props['unmatched'] ?? '').split('\n').map((l) => /^entry (\d+) /.exec(l)?.[1])).toEqual(brand.map(String));
    expect(failedRequirements(run.report)).toEqual(['MERCHANT-CLIENT-ROUTE']);
    const route = caseOf(run.report, 'passive:client-requests').failures;
    // one failure of the requirement, listing each request that broke it
    expect(route.map((f) => f.requirement)).toEqual(['MERCHANT-CLIENT-ROUTE']);
    const assertions = route[0]?.assertions ?? [];
    expect(assertions.map((f) => /\(entry (\d+)\)/.exec(f.message)?.[1])).toEqual(brand.map(String));
    expect(assertions[0]?.message).toMatch(/\/liasettings\/\d+\/accessiblegmbaccounts\?\S+ \(entry \d+\): GET \/content\/v2\.1\/\d+\/liasettings\/\d+\/accessiblegmbaccounts: no operation has a path that fits/);
    expect(LIBRARY_LACKS.length).toBeGreaterThan(0);
    const reached = new Set(ops.filter((op) => !LIBRARY_LACKS.includes(op) && !LIBRARY_UNCALLED.includes(op)));
    // the library sends its API key as a query parameter, which no request of the stateful cases
    // carries: none of its requests stands for theirs, and they stay untested, saying what is lacking
    expect(statusMap(run.report)).toEqual({ ...expectedStatuses(reached, () => false), 'MERCHANT-CLIENT-ROUTE': 'failed' });
    for (const id of STATEFUL) expect(caseOf(run.report, id), id).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/^passive target: no POST (regions|conversionsources)\.create \(merchantId \$\{merchant_id\}\) without query, with the body it sends was recorded$/) });
    for (const op of [...LIBRARY_LACKS, ...LIBRARY_UNCALLED]) {
      expect(reasonOf(run.report, reqId(op))).toMatch(new RegExp(`^skipped: passive target: the recording has no .* of operation ${op.replace(/\./g, '\\.')}$`));
    }
    const cases = run.report.suites.flatMap((s) => s.cases);
    expect(cases.filter((c) => c.outcome === 'errored' || c.outcome === 'failed').map((c) => c.id)).toEqual(['passive:client-requests']);
    expect(caseOf(run.report, 'batch-path-returnaddress-custombatch')).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/no .* of operation returnaddress\.custombatch$/) });
  });

  it('planted deviations fail exactly their requirements: a 500 its operation; a request with a method its path does not have, and one to no path of the tables, the client rules', async () => {
    const planted = structuredClone(reference.entries);
    const productGet = indexOf(planted, 'GET', /\/products\/[^/]+$/);
    const accountUpdate = indexOf(planted, 'PUT', /^\/content\/v2\.1\/\d+\/accounts\/\d+$/);
    answerError(entryOf(planted, productGet), 500);
    entryOf(planted, accountUpdate).request.method = 'PATCH';
    // one more request, to a path no table has (the service answers it 404)
    const stray = structuredClone(entryOf(planted, indexOf(planted, 'GET', /^\/content\/v2\.1\/\d+\/products$/)));
    stray.request.url = stray.request.url.replace(/\/products(?=\?|$)/, '/productz');
    answerError(stray, 404);
    planted.push(stray as unknown as Record<string, unknown>);
    const strayIndex = planted.length - 1;
    const run = await judge(tmp.dir, 'planted', planted);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(failedRequirements(run.report)).toEqual(['MERCHANT-CLIENT-METHOD', 'MERCHANT-CLIENT-ROUTE', 'MERCHANT-OP-PRODUCTS-GET']);
    const client = caseOf(run.report, 'passive:client-requests').failures;
    expect(client.map((f) => [f.requirement, /\(entry (\d+)\)/.exec(f.message)?.[1]])).toEqual([
      ['MERCHANT-CLIENT-ROUTE', String(strayIndex)],
      ['MERCHANT-CLIENT-METHOD', String(accountUpdate)],
    ]);
    expect(client[1]?.message).toMatch(/^PATCH \S+\/accounts\/\d+ \(entry \d+\): PATCH \/content\/v2\.1\/\d+\/accounts\/\d+: PATCH is not an operation on/);
    const failure = caseOf(run.report, 'op-products-get').failures;
    expect(failure).toHaveLength(1);
    expect(failure[0]?.message).toMatch(new RegExp(`^GET http://127\\.0\\.0\\.1:\\d+/content/v2\\.1/\\d+/products/\\S+ \\(entry ${productGet}\\): answered 500, a status operation products\\.get does not list \\(it answers 2XX\\)$`));
    // accounts.update was sent only as the PATCH: no PUT is recorded, so its requirement stays untested
    expect(statusMap(run.report)['MERCHANT-OP-ACCOUNTS-UPDATE']).toBe('untested');
    expect(reasonOf(run.report, 'MERCHANT-OP-ACCOUNTS-UPDATE')).toMatch(/^skipped: passive target: the recording has no .* of operation accounts\.update$/);
    expect(run.stdout).toMatch(new RegExp(`2 recorded exchange\\(s\\) fit no operation of suite merchant and were not judged: entry ${accountUpdate} PATCH \\S+/accounts/\\d+ \\(PATCH is not an operation on /\\d+/accounts/\\d+ \\(the table lists DELETE, GET, PUT\\)\\)`));
    // everything else is judged as in the unchanged recording
    const unchanged = expectedStatuses(new Set(ops.filter((op) => op !== 'accounts.update')));
    expect(statusMap(run.report)).toEqual({ ...unchanged, 'MERCHANT-OP-PRODUCTS-GET': 'failed', 'MERCHANT-CLIENT-METHOD': 'failed', 'MERCHANT-CLIENT-ROUTE': 'failed' });
  });

  it('the stateful cases that opted in are judged on the reference client’s create, change and read-back of one item, and pass', async () => {
    expect(STATEFUL.length).toBeGreaterThan(0);
    const run = await judge(tmp.dir, 'stateful', reference.entries);
    expect(run.code).toBe(0);
    for (const id of STATEFUL) {
      const c = judgedCase(run.report, id);
      expect(c, id).toMatchObject({ outcome: 'passed' });
      // every step of the case stood on a recorded exchange, and each requirement was observed
      expect(c.exchanges.length, id).toBe(merchant.cases.find((d) => d.id === id)?.steps.length);
      for (const r of c.requirements) expect(c.evidence?.[r], `${id} ${r}`).toBeGreaterThan(0);
    }
  });

  it('a write by someone else on the item between the steps: that sequence is not used, the case stays untested or takes a later clean one', async () => {
    const planted = structuredClone(reference.entries);
    const patch = indexOf(planted, 'PATCH', /\/regions\/[^/]+$/);
    const get = indexOf(planted, 'GET', /\/regions\/[^/]+$/);
    expect(get).toBeGreaterThan(patch);
    // another client renames the region between the patch and the read-back (its answer as the service gave it)
    const other = structuredClone(entryOf(planted, patch)) as unknown as { request: { postData: { text: string } } };
    other.request.postData.text = JSON.stringify({ displayName: 'Renamed by another client' });
    planted.splice(get, 0, other as unknown as Record<string, unknown>);
    const run = await judge(tmp.dir, 'interleaved', planted);
    expect(run.code).toBe(0);
    expect(caseOf(run.report, 'read-back-after-patch')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringMatching(new RegExp(`^passive target: every recorded sequence of its requests has another write on the item it addresses between its steps \\(entry ${get} PATCH /content/v2\\.1/\\d+/regions/[^ ]+ between entries \\d+ and ${get + 1}\\), so none stands for the case$`)),
    });
    expect(statusMap(run.report)['MERCHANT-READ-BACK']).toBe('untested');
    // everything else is judged as in the unchanged recording
    expect(statusMap(run.report)).toEqual({ ...expectedStatuses(new Set(ops)), 'MERCHANT-READ-BACK': 'untested' });
    // the same recording with the client's create, patch and read-back of the region once more, after it: that sequence is clean and judged
    const create = indexOf(planted, 'POST', /\/regions$/);
    const again = [...planted, ...[create, patch, get + 1].map((i) => structuredClone(planted[i]) as Record<string, unknown>)];
    const later = await judge(tmp.dir, 'interleaved-then-clean', again);
    expect(caseOf(later.report, 'read-back-after-patch')).toMatchObject({ outcome: 'passed', evidence: { 'MERCHANT-READ-BACK': 1 } });
    expect(judgedCase(later.report, 'read-back-after-patch').exchanges.map((x) => x.request.url)).toEqual([create, patch, get + 1].map((i) => entryOf(planted, i).request.url));
  });

  it('a planted read-back answering other values than the patch sent fails exactly the case’s requirement', async () => {
    const planted = structuredClone(reference.entries);
    const get = entryOf(planted, indexOf(planted, 'GET', /\/regions\/[^/]+$/));
    const region = JSON.parse(get.response.content.text ?? '{}') as Record<string, unknown>;
    answerWith(get, 200, { ...region, displayName: 'Reference Region' });
    const run = await judge(tmp.dir, 'read-back', planted);
    expect(run.code).toBe(1);
    expect(failedRequirements(run.report)).toEqual(['MERCHANT-READ-BACK']);
    const failures = caseOf(run.report, 'read-back-after-patch').failures;
    expect(failures.map((f) => f.requirement)).toEqual(['MERCHANT-READ-BACK']);
    expect(failures[0]?.message).toMatch(/^GET \S+\/regions\/\S+ \(entry \d+, step 3\): .*displayName/);
    expect(failures[0]).toMatchObject({ expected: 'Reference Region Renamed', actual: 'Reference Region' });
    // a route case judges only that the get is served: it still passes
    expect(statusMap(run.report)).toEqual({ ...expectedStatuses(new Set(ops)), 'MERCHANT-READ-BACK': 'failed' });
  });

  // the base's literal path (/content/v2.1) is taken off first, so /v2.1/accounts/authinfo is never read as accounts.get
  it('sorts GET /content/v2.1/accounts/authinfo and /liasettings/posdataproviders to their own operations', async () => {
    const run = await judge(tmp.dir, 'routing', reference.entries);
    expect(run.code).toBe(0);
    for (const op of ['accounts.authinfo', 'liasettings.listposdataproviders']) expect(statusMap(run.report)[reqId(op)], op).toBe('passed');
  });

  // the table gives an item that is gone any 4xx (goneStatus: 4XX), and one exchange cannot tell a gone
  // item from a present one, so a 4xx answer says nothing about whether the operation is served
  it('counts no 4xx answer against an operation: the same service answering for a deleted product, and a DELETE answered 404', async () => {
    // reference.after: the service's real answers to GET and DELETE of the product the client deleted (404, checked above)
    const entries = structuredClone([...reference.entries, ...reference.after]);
    answerError(entryOf(entries, indexOf(entries, 'DELETE', /\/datafeeds\/[^/]+$/)), 404);
    const run = await judge(tmp.dir, 'gone', entries);
    expect(failedRequirements(run.report)).toEqual([]);
    expect(run.code).toBe(0);
  });
});
