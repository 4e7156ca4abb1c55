import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { builtSpecgate, declarePeer, moduleAvailable, requirePeer } from '../../helpers/peer.js';
import { MERCHANT_CLIENT_FAULTS } from '../../fixtures/merchant/clients/faults.js';
import { fillPath } from '../../../reference/merchant/client/calls.js';
import { merchantClientEnvVars, readMerchantClientEnv } from '../../../reference/merchant/client/contract.js';
import { REFERENCE_CALLS } from '../../../reference/merchant/client/plan.js';
import { ANSWERED, jsonOf, merchantRoutes, routeOf, runScript, startRecorder, type Launch, type Recorded, type Recorder } from './recorder.js';

/**
 * The bundled merchant clients run as processes against a stand-in service that records what
 * they send: the reference client calls every operation of suites/merchant/api.yaml once, the
 * @googleapis/content launcher calls every library method once, and each planted-fault client
 * sends exactly one request off the table. Needs `npm run build` (the clients run from dist/).
 */
const REFERENCE = fromRoot('dist', 'reference', 'merchant', 'client', 'main.js');
const LAUNCHER = fromRoot('dist', 'test', 'fixtures', 'merchant', 'peers', 'content-client.js');
const FAULT_CLIENT = fromRoot('dist', 'test', 'fixtures', 'merchant', 'clients', 'fault-client.js');
const built = builtSpecgate(REFERENCE, LAUNCHER, FAULT_CLIENT);
declarePeer(built);
const library = requirePeer('@googleapis/content', moduleAvailable('@googleapis/content'), 'npm install');
declarePeer(library);

const M = '1234567';
const PREFIX = '/content/v2.1';
const routes = merchantRoutes();

function contract(url: string): Record<string, string> {
  return { SPECGATE_MERCHANT_URL: url, SPECGATE_MERCHANT_ID: M, SPECGATE_CSS_GROUP_ID: '42', SPECGATE_CSS_DOMAIN_ID: '4242' };
}

/** Launches a client against a fresh stand-in answering `status`; returns what it sent and how it ended. */
async function launch(script: string, args: string[] = [], status = 200): Promise<{ run: Launch; requests: Recorded[] }> {
  const rec: Recorder = await startRecorder(status);
  try {
    const run = await runScript(script, args, contract(rec.url));
    return { run, requests: rec.requests };
  } finally {
    await rec.close();
  }
}

const opsOf = (requests: Recorded[]): (string | undefined)[] => requests.map((r) => routeOf(routes, r.method, r.path)?.id);
const sorted = (xs: string[]): string[] => [...xs].sort();
/** Standard error without Node's own warnings (a newer Node may warn about a dependency). */
const ownStderr = (r: Launch): string => r.stderr.split('\n').filter((l) => l !== '' && !/^\(node:\d+\)|--trace-/.test(l)).join('\n');

describe('reference merchant client, as written', () => {
  it('writes each operation of the route table once, with the method and path template of its row', () => {
    const rows = new Map(routes.map((r) => [r.id, r]));
    expect(REFERENCE_CALLS.filter((c) => rows.get(c.op)?.method !== c.method || rows.get(c.op)?.path !== c.path).map((c) => `${c.op} ${c.method} ${c.path}`)).toEqual([]);
    expect(sorted(REFERENCE_CALLS.map((c) => c.op))).toEqual(sorted(routes.map((r) => r.id)));
  });

  it('percent-encodes IDs into the path and names the IDs it does not know', () => {
    const call = { op: 'x', method: 'POST' as const, path: '/{merchantId}/conversionsources/{conversionSourceId}:undelete' };
    expect(fillPath(call, { merchantId: '1', conversionSourceId: 'mcdn:7/a b' })).toEqual({ path: '/content/v2.1/1/conversionsources/mcdn%3A7%2Fa%20b:undelete' });
    expect(fillPath(call, { merchantId: '1' })).toEqual({ missing: ['conversionSourceId'] });
    expect(fillPath({ ...call, use: { conversionSourceId: 'other' } }, { merchantId: '1', other: 'o' })).toEqual({ path: '/content/v2.1/1/conversionsources/o:undelete' });
  });

  it('reads back the launch contract, trims a trailing slash, and refuses a URL that is not http(s)', () => {
    const env = { url: 'http://127.0.0.1:9', merchantId: M, cssGroupId: '42', cssDomainId: '4242' };
    expect(readMerchantClientEnv(merchantClientEnvVars(env))).toEqual(env);
    expect(readMerchantClientEnv({ ...merchantClientEnvVars(env), SPECGATE_MERCHANT_URL: 'http://127.0.0.1:9/' }).url).toBe('http://127.0.0.1:9');
    expect(() => readMerchantClientEnv({ ...merchantClientEnvVars(env), SPECGATE_MERCHANT_URL: '127.0.0.1:9' })).toThrow(/SPECGATE_MERCHANT_URL must be an http\(s\) URL/);
    expect(() => readMerchantClientEnv({ ...merchantClientEnvVars(env), SPECGATE_MERCHANT_ID: ' ' })).toThrow(/SPECGATE_MERCHANT_ID is not set/);
  });
});

describe.skipIf(built.skip)('reference merchant client', () => {
  let run: Launch;
  let requests: Recorded[];
  let ops: (string | undefined)[];
  const at = (op: string): number => ops.indexOf(op);
  const pathOf = (op: string): string | undefined => requests[at(op)]?.path;

  beforeAll(async () => {
    ({ run, requests } = await launch(REFERENCE));
    ops = opsOf(requests);
  });

  it('calls every operation of the route table exactly once, all below /content/v2.1, and exits 0', () => {
    expect(ownStderr(run)).toBe('');
    expect(run.code).toBe(0);
    expect(requests.every((r) => r.path.startsWith(`${PREFIX}/`))).toBe(true);
    expect(requests.filter((_r, i) => ops[i] === undefined).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(sorted(ops.filter((o): o is string => o !== undefined))).toEqual(sorted(routes.map((r) => r.id)));
    expect(routes).toHaveLength(135);
    // one line per call on standard output
    expect(run.stdout.trim().split('\n')).toHaveLength(135);
  });

  it('fills paths with the contract IDs and the IDs the service answered', () => {
    expect(pathOf('accounts.authinfo')).toBe(`${PREFIX}/accounts/authinfo`);
    expect(pathOf('csses.get')).toBe(`${PREFIX}/42/csses/4242`);
    expect(pathOf('accounts.get')).toBe(`${PREFIX}/${M}/accounts/${ANSWERED.id}`);
    expect(pathOf('accounts.labels.patch')).toBe(`${PREFIX}/accounts/${M}/labels/${ANSWERED.labelId}`);
    expect(pathOf('conversionsources.undelete')).toBe(`${PREFIX}/${M}/conversionsources/${ANSWERED.conversionSourceId}:undelete`);
    expect(pathOf('pos.get')).toBe(`${PREFIX}/${M}/pos/${M}/store/${ANSWERED.storeCode}`);
    expect(pathOf('returnpolicyonline.delete')).toBe(`${PREFIX}/${M}/returnpolicyonline/${ANSWERED.returnPolicyId}`);
    expect(pathOf('liasettings.requestinventoryverification')).toBe(`${PREFIX}/${M}/liasettings/${M}/requestinventoryverification/US`);
  });

  it('creates before it uses, and deletes last; a conversion source is archived, read back, then re-enabled; a region is read back after its patch', () => {
    const lives = [
      ['accounts.insert', 'accounts.get', 'accounts.update', 'accounts.custombatch', 'accounts.delete'],
      ['accounts.labels.create', 'accounts.labels.patch', 'csses.updatelabels', 'accounts.labels.delete'],
      ['conversionsources.create', 'conversionsources.delete', 'conversionsources.get', 'conversionsources.undelete', 'conversionsources.patch'],
      ['datafeeds.insert', 'datafeeds.fetchnow', 'datafeedstatuses.get', 'datafeeds.delete'],
      ['pos.insert', 'pos.get', 'localinventory.insert', 'pos.delete'],
      ['products.insert', 'products.update', 'regionalinventory.insert', 'productdeliverytime.create', 'productdeliverytime.delete', 'products.delete'],
      ['regions.create', 'regions.patch', 'regions.get', 'regionalinventory.insert', 'regions.delete'],
      ['returnpolicyonline.create', 'returnpolicyonline.patch', 'returnpolicyonline.delete'],
    ];
    for (const life of lives) {
      const order = life.map(at);
      expect(order.every((i) => i >= 0), life.join(' ')).toBe(true);
      expect(order, life.join(' ')).toEqual([...order].sort((a, b) => a - b));
    }
  });

  it('sends each custombatch to POST /<group>/batch with get entries naming the merchant', () => {
    const batches = requests.filter((_r, i) => ops[i]?.endsWith('.custombatch'));
    expect(batches).toHaveLength(routes.filter((r) => r.id.endsWith('.custombatch')).length);
    for (const b of batches) {
      expect(b.method).toBe('POST');
      expect(b.path).toMatch(/^\/content\/v2\.1\/[a-z]+\/batch$/);
      const entries = (jsonOf(b) as { entries?: { batchId?: unknown; merchantId?: unknown; method?: unknown }[] }).entries ?? [];
      expect(entries.length, b.path).toBeGreaterThan(0);
      for (const e of entries) expect(e).toMatchObject({ batchId: expect.any(Number), merchantId: M, method: 'get' });
    }
  });

  it('goes on after error answers, sends what needs no answered ID, and exits 1 for the calls it could not make', async () => {
    const failed = await launch(REFERENCE, [], 404);
    expect(failed.run.code).toBe(1);
    expect(failed.run.stderr).toMatch(/accounts\.get: not sent: the service never answered subAccountId/);
    const sent = opsOf(failed.requests);
    expect(sent).toContain('accounts.authinfo');
    expect(sent).toContain('shippingsettings.custombatch');
    expect(sent).not.toContain('accounts.get');
    expect(failed.requests.length).toBeGreaterThan(60);
    expect(failed.requests.length).toBeLessThan(135);
  });

  it('exits 2 naming the variable of the launch contract that is missing', async () => {
    const rec = await startRecorder();
    try {
      const { SPECGATE_CSS_DOMAIN_ID: _dropped, ...partial } = contract(rec.url);
      const noDomain = await runScript(REFERENCE, [], partial);
      expect(noDomain.code).toBe(2);
      expect(noDomain.stderr).toMatch(/SPECGATE_CSS_DOMAIN_ID is not set/);
      const nothing = await runScript(REFERENCE, [], {});
      expect(nothing.code).toBe(2);
      expect(nothing.stderr).toMatch(/SPECGATE_MERCHANT_URL is not set/);
      expect(rec.requests).toEqual([]);
    } finally {
      await rec.close();
    }
  });

  it('exits 1 when the service cannot be reached', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const r = await runScript(REFERENCE, [], contract(`http://127.0.0.1:${port}`));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/accounts\.authinfo: GET .* failed/);
  });
});

describe.skipIf(built.skip || library.skip)('@googleapis/content launcher', () => {
  let run: Launch;
  let requests: Recorded[];

  beforeAll(async () => {
    ({ run, requests } = await launch(LAUNCHER));
  });

  it('attempts all 125 library methods, one request each, below /content/v2.1 with the key as ?key=', () => {
    expect(ownStderr(run)).toBe('');
    expect(run.code).toBe(0);
    expect(requests).toHaveLength(125);
    expect(requests.filter((r) => !r.path.startsWith(`${PREFIX}/`))).toEqual([]);
    expect(requests.filter((r) => r.query.get('key') !== 'specgate-key')).toEqual([]);
    const lines = run.stdout.trim().split('\n');
    expect(lines.filter((l) => /^[\w.]+ 200$/.test(l))).toHaveLength(125);
    expect(lines.at(-1)).toBe('attempted 125 library methods; 0 answered with an HTTP error');
  });

  it("fits the route table, except the two methods that keep the library's brand names", () => {
    const ops = opsOf(requests);
    const off = requests.filter((_r, i) => ops[i] === undefined).map((r) => `${r.method} ${r.path}`);
    expect(off).toEqual([`GET ${PREFIX}/${M}/liasettings/${M}/accessiblegmbaccounts`, `POST ${PREFIX}/${M}/liasettings/${M}/requestgmbaccess`]);
    // what the library does not have: the return address and (offline) return policy groups
    const absent = routes.map((r) => r.id).filter((id) => !ops.includes(id));
    expect(sorted(absent)).toEqual(
      sorted([
        ...['custombatch', 'delete', 'get', 'insert', 'list'].flatMap((n) => [`returnaddress.${n}`, `returnpolicy.${n}`]),
        'liasettings.getaccessibleprofileaccounts',
        'liasettings.requestprofileaccess',
      ]),
    );
    expect(new Set(ops.filter((o) => o !== undefined)).size).toBe(123);
  });

  it('records HTTP error answers and goes on to the next method', async () => {
    const failed = await launch(LAUNCHER, [], 404);
    expect(failed.run.code).toBe(0);
    expect(failed.requests).toHaveLength(125);
    expect(failed.run.stdout.trim().split('\n').filter((l) => / error 404$/.test(l))).toHaveLength(125);
  });
});

/**
 * The one request each planted fault sends wrong: off the table (a path or method the table does
 * not have), or on it with the method of another operation of the same path, which only the
 * request's body shows (a bodiless POST where POST is insert, a DELETE that carries an update).
 */
const DEVIATION: Readonly<Record<string, { sent: (r: Recorded) => boolean; offTable: boolean }>> = {
  'wrong-prefix': { sent: (r) => r.method === 'GET' && r.path === '/content/v2/accounts/authinfo', offTable: true },
  'unknown-route': { sent: (r) => r.method === 'GET' && r.path === `${PREFIX}/${M}/productz`, offTable: true },
  'wrong-method': { sent: (r) => r.method === 'PUT' && r.path === `${PREFIX}/${M}/products/${ANSWERED.id}`, offTable: true },
  'batch-with-merchant': { sent: (r) => r.method === 'POST' && r.path === `${PREFIX}/${M}/products/batch`, offTable: true },
  'list-as-post': { sent: (r) => r.method === 'POST' && r.path === `${PREFIX}/${M}/products` && r.body === '', offTable: false },
  'update-as-delete': { sent: (r) => r.method === 'DELETE' && r.path === `${PREFIX}/${M}/products/${ANSWERED.id}` && r.body !== '', offTable: false },
};

describe.skipIf(built.skip)('planted-fault merchant clients', () => {
  it('has an expected deviation for every fault of the catalog', () => {
    expect(sorted(Object.keys(MERCHANT_CLIENT_FAULTS))).toEqual(sorted(Object.keys(DEVIATION)));
  });

  it.each(Object.keys(MERCHANT_CLIENT_FAULTS))('%s sends exactly one request wrong, the planted one', async (name) => {
    const { run, requests } = await launch(FAULT_CLIENT, ['--fault', name]);
    expect(run.code).toBe(0);
    expect(requests).toHaveLength(7);
    const ops = opsOf(requests);
    const off = requests.filter((_r, i) => ops[i] === undefined);
    const deviation = DEVIATION[name];
    const planted = requests.filter((r) => deviation?.sent(r) === true);
    expect(planted, requests.map((r) => `${r.method} ${r.path}`).join('; ')).toHaveLength(1);
    // a request off the table is the planted one; one on it leaves nothing off the table
    expect(off).toEqual(deviation?.offTable ? planted : []);
  });

  it('refuses an unknown fault with exit 2, sending nothing', async () => {
    const { run, requests } = await launch(FAULT_CLIENT, ['--fault', 'no-such-fault']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown fault "no-such-fault".*wrong-prefix/);
    expect(requests).toEqual([]);
  });
});
