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
import { answerWith, entryOf, indexOf, judgeHar, reasonOf } from '../helpers/har-judging.js';
import { declarePeer, moduleAvailable, requirePeer } from '../helpers/peer.js';
import { failedRequirements } from '../helpers/verdicts.js';
import { merchantRoutes, runScript, type Launch } from '../reference/merchant/recorder.js';
import { proxiedToHar, type HarEntryShape } from '../targets/har/har-builder.js';
import { assertBuilt, caseOf, statusMap, tempDir } from './cli.js';

const REFERENCE_CLIENT = fromRoot('dist', 'reference', 'merchant', 'client', 'main.js');
const LIBRARY_LAUNCHER = fromRoot('dist', 'test', 'fixtures', 'merchant', 'peers', 'content-client.js');
const library = requirePeer('@googleapis/content', moduleAvailable('@googleapis/content'), 'npm install');
declarePeer(library);

/** What a case that must send requests of its own is skipped with. */
const NEEDS_LIVE = 'passive target: needs live requests';
/** The operations whose cases are written out as request sequences (they need a state set up first). */
const WRITTEN_OUT = ['conversionsources.undelete', 'freelistingsprogram.checkoutsettings.get', 'freelistingsprogram.checkoutsettings.delete'];
/** The two library methods whose path segments the spec's tables name neutrally. */
const LIBRARY_UNCALLED = ['liasettings.getaccessibleprofileaccounts', 'liasettings.requestprofileaccess'];
const OPERATIONS = merchantRoutes().map((r) => r.id);
/** Operations the published library has no method for (it has no returnaddress or returnpolicy groups). */
const LIBRARY_LACKS = OPERATIONS.filter((op) => /^returnaddress\.|^returnpolicy\./.test(op));

/** An operation ID as the suite's IDs spell it: `recommendations.reportInteraction` -> `recommendations-report-interaction`. */
const kebab = (op: string): string => op.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/\./g, '-').toLowerCase();
const reqId = (op: string): string => `MERCHANT-OP-${kebab(op).toUpperCase()}`;
const caseId = (prefix: string, op: string): string => `${prefix}-${kebab(op)}`;

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

/** An error answer as a service would send it: the status and a Google-style error body. */
function answerError(entry: HarEntryShape, status: number): void {
  answerWith(entry, status, { error: { code: status, message: `planted ${status}` } });
}

/**
 * What a judged recording gives every requirement apart from the per-operation ones: only
 * MERCHANT-BATCH-PATH has single-exchange cases; the others need live requests or are excluded.
 */
const OTHER_REQUIREMENTS: Readonly<Record<string, string>> = {
  'MERCHANT-VERSION-PREFIX': 'untested',
  'MERCHANT-BATCH-PATH': 'passed',
  'MERCHANT-BATCH-MANY': 'untested',
  'MERCHANT-AUTHINFO-CALLER': 'untested',
  'MERCHANT-LIST-ACCESSIBLE': 'untested',
  'MERCHANT-GET-AFTER-DELETE': 'untested',
  'MERCHANT-READ-BACK': 'untested',
  'MERCHANT-CONVERSION-DELETE-ARCHIVES': 'untested',
  'MERCHANT-CONVERSION-DELETE-ACTIVE-ONLY': 'untested',
  'MERCHANT-CONVERSION-UNDELETE-REENABLES': 'untested',
  'MERCHANT-CONVERSION-UNDELETE-ARCHIVED-ONLY': 'untested',
  'MERCHANT-OTHER-STATES': 'excluded',
  'MERCHANT-LABEL-CREATE-UNASSIGNED': 'untested',
  'MERCHANT-LABEL-DELETE-UNASSIGNS': 'untested',
  'MERCHANT-DELIVERYTIME-UPSERT': 'untested',
  'MERCHANT-CHECKOUT-DELETE-UNENROLLS': 'untested',
  'MERCHANT-PUBSUB-PUT-GET': 'untested',
  'MERCHANT-AUTHENTICATION': 'excluded',
  'MERCHANT-PAYLOADS': 'excluded',
  'MERCHANT-ERRORS': 'excluded',
  'MERCHANT-LIMITS': 'excluded',
  'MERCHANT-NOTIFICATION-PAYLOADS': 'excluded',
  'MERCHANT-CLIENT-PREFIX': 'untested',
  'MERCHANT-CLIENT-ROUTE': 'untested',
  'MERCHANT-CLIENT-METHOD': 'untested',
  'MERCHANT-CLIENT-BATCH-PATH': 'untested',
};

/**
 * The statuses a conformant recording earns: each operation in `reached` (and not written out)
 * passes, every other operation's requirement is untested.
 */
function expectedStatuses(ops: readonly string[], reached: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = { ...OTHER_REQUIREMENTS };
  for (const op of ops) out[reqId(op)] = reached.has(op) && !WRITTEN_OUT.includes(op) ? 'passed' : 'untested';
  return out;
}

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
    expect(reference.entries).toHaveLength(135);
    // what the service answers for the product once the client deleted it (recorded for the 4xx test below)
    expect(reference.after.map((e) => (e as unknown as HarEntryShape).response.status)).toEqual([404, 404]);
    const run = await judge(tmp.dir, 'reference', reference.entries);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/warning/);
    expect(run.report.suites[0]?.properties).toMatchObject({ mode: 'passive', exchanges: '135', matched: '135' });
    expect(run.report.suites[0]?.properties).not.toHaveProperty('unmatched');
    expect(statusMap(run.report)).toEqual(expectedStatuses(ops, new Set(ops)));
    // 135 operations: 132 judged on their exchange and passed, 3 written out as sequences
    expect(Object.keys(statusMap(run.report)).filter((id) => id.startsWith('MERCHANT-OP-') && statusMap(run.report)[id] === 'passed')).toHaveLength(132);
    for (const op of WRITTEN_OUT) expect(reasonOf(run.report, reqId(op))).toBe(`skipped: ${NEEDS_LIVE}`);
    for (const [id, status] of Object.entries(OTHER_REQUIREMENTS)) if (status === 'untested') expect(reasonOf(run.report, id)).toBe(`skipped: ${NEEDS_LIVE}`);
    const cases = run.report.suites.flatMap((s) => s.cases);
    expect(cases.filter((c) => c.outcome === 'errored' || c.outcome === 'failed')).toEqual([]);
    const judgeable = new Set(ops.filter((op) => !WRITTEN_OUT.includes(op)).map((op) => caseId('op', op)));
    for (const c of cases) {
      if (judgeable.has(c.id) || c.id.startsWith('batch-path-')) expect(c, c.id).toMatchObject({ outcome: 'passed' });
      else expect(c, c.id).toMatchObject({ outcome: 'skipped', reason: NEEDS_LIVE });
    }
  });

  it.skipIf(library.skip)('@googleapis/content: its calls are served, its two brand-word requests are warned about as unmatched, not failed', async () => {
    const rec = published as Recorded;
    expect(rec.launch.code).toBe(0);
    expect(rec.entries).toHaveLength(125);
    const run = await judge(tmp.dir, 'library', rec.entries);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const brand = [indexOf(rec.entries, 'GET', /\/liasettings\/\d+\/accessiblegmbaccounts$/), indexOf(rec.entries, 'POST', /\/liasettings\/\d+\/requestgmbaccess$/)];
    expect(run.stdout).toMatch(
      new RegExp(`warning: \\S+library\\.har: 2 recorded exchange\\(s\\) fit no operation of suite merchant and were not judged: entry ${brand[0]} GET http://127\\.0\\.0\\.1:\\d+/content/v2\\.1/\\d+/liasettings/\\d+/accessiblegmbaccounts\\?key=\\S+ \\(no operation has a path that fits [^)]+\\); entry ${brand[1]} POST \\S+/requestgmbaccess\\?\\S+ \\(no operation has a path`),
    );
    const props = run.report.suites[0]?.properties ?? {};
    expect(props).toMatchObject({ mode: 'passive', exchanges: '125', matched: '123' });
    expect((props['unmatched'] ?? '').split('\n').map((l) => /^entry (\d+) /.exec(l)?.[1])).toEqual(brand.map(String));
    expect(failedRequirements(run.report)).toEqual([]);
    const reached = new Set(ops.filter((op) => !LIBRARY_LACKS.includes(op) && !LIBRARY_UNCALLED.includes(op)));
    expect(reached.size).toBe(135 - 12);
    expect(statusMap(run.report)).toEqual(expectedStatuses(ops, reached));
    for (const op of [...LIBRARY_LACKS, ...LIBRARY_UNCALLED]) {
      expect(reasonOf(run.report, reqId(op))).toMatch(new RegExp(`^skipped: passive target: the recording has no .* of operation ${op.replace(/\./g, '\\.')}$`));
    }
    const cases = run.report.suites.flatMap((s) => s.cases);
    expect(cases.filter((c) => c.outcome === 'errored' || c.outcome === 'failed')).toEqual([]);
    expect(caseOf(run.report, 'batch-path-returnaddress-custombatch')).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/no .* of operation returnaddress\.custombatch$/) });
  });

  it('a planted 500 fails exactly its operation; a request recorded with a method its path does not have is stray traffic, not a failure', async () => {
    const planted = structuredClone(reference.entries);
    const productGet = indexOf(planted, 'GET', /\/products\/[^/]+$/);
    const accountUpdate = indexOf(planted, 'PUT', /^\/content\/v2\.1\/\d+\/accounts\/\d+$/);
    answerError(entryOf(planted, productGet), 500);
    entryOf(planted, accountUpdate).request.method = 'PATCH';
    const run = await judge(tmp.dir, 'planted', planted);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(failedRequirements(run.report)).toEqual(['MERCHANT-OP-PRODUCTS-GET']);
    const failure = caseOf(run.report, 'op-products-get').failures;
    expect(failure).toHaveLength(1);
    expect(failure[0]?.message).toMatch(new RegExp(`^GET http://127\\.0\\.0\\.1:\\d+/content/v2\\.1/\\d+/products/\\S+ \\(entry ${productGet}\\): answered 500, a status operation products\\.get does not list \\(it answers 2XX\\)$`));
    // accounts.update was sent only as the PATCH: no PUT is recorded, so its requirement stays untested
    expect(statusMap(run.report)['MERCHANT-OP-ACCOUNTS-UPDATE']).toBe('untested');
    expect(reasonOf(run.report, 'MERCHANT-OP-ACCOUNTS-UPDATE')).toMatch(/^skipped: passive target: the recording has no .* of operation accounts\.update$/);
    expect(run.stdout).toMatch(new RegExp(`1 recorded exchange\\(s\\) fit no operation of suite merchant and were not judged: entry ${accountUpdate} PATCH \\S+/accounts/\\d+ \\(PATCH is not an operation on /\\d+/accounts/\\d+ \\(the table lists DELETE, GET, PUT\\)\\)`));
    // everything else is judged as in the unchanged recording
    const unchanged = (expectedStatuses(ops, new Set(ops.filter((op) => op !== 'accounts.update'))));
    expect(statusMap(run.report)).toEqual({ ...unchanged, 'MERCHANT-OP-PRODUCTS-GET': 'failed' });
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
