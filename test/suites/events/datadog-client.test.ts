import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.js';
import { startEventsReference } from '../../../reference/events/server/reference-target.js';
import { declarePeer, moduleAvailable, requirePeer } from '../../helpers/peer.js';

/**
 * @datadog/datadog-api-client 1.64.0, a real client of the monitoring API, against the events
 * reference (spec 002 G): every answer it gets must deserialize. The client sends its vendor's key
 * headers (DD-API-KEY, DD-APPLICATION-KEY) from fixed code in its auth module, with no setting to
 * rename them; its `httpApi` setting (the transport) is the documented hook, so a transport that
 * renames them to the spec's neutral names (MON-API-KEY, MON-APPLICATION-KEY) plays the part a
 * target profile's `headers:` plays for specgate. Findings: suites/events/FINDINGS.md.
 */
const client = requirePeer('@datadog/datadog-api-client', moduleAvailable('@datadog/datadog-api-client'), 'npm install (devDependency @datadog/datadog-api-client@1.64.0)');
declarePeer(client);

const NOW = Date.UTC(2026, 0, 1, 12);
const HOUR = 3_600_000;

type Dd = typeof import('@datadog/datadog-api-client');
type Reference = Awaited<ReturnType<typeof startEventsReference>>;

/** Vendor header -> the spec's neutral name. */
const RENAMED: Record<string, string> = { 'dd-api-key': 'MON-API-KEY', 'dd-application-key': 'MON-APPLICATION-KEY' };

/** Paths in a deserialized value where the client flagged a field it could not read (`_unparsed`). */
function unparsed(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => unparsed(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const own = Object.entries(value as Record<string, unknown>);
  const here = own.some(([k, v]) => k === '_unparsed' && v === true) ? [path] : [];
  return [...here, ...own.filter(([k]) => k !== '_unparsed').flatMap(([k, v]) => unparsed(v, `${path}.${k}`))];
}

/** Variables of the client's `{protocol}://{name}` server for a base URL (a path is part of the name). */
function serverVariables(base: URL): { protocol: string; name: string } {
  return { protocol: base.protocol.replace(':', ''), name: base.host + base.pathname.replace(/\/$/, '') };
}

describe.skipIf(client.skip)('@datadog/datadog-api-client 1.64.0 against the events reference', () => {
  let ref: Reference | undefined;
  let dd: Dd;
  let conf: ReturnType<Dd['client']['createConfiguration']>;
  let ipConf: ReturnType<Dd['client']['createConfiguration']>;
  const sentHeaders: string[][] = [];

  beforeAll(async () => {
    dd = await import('@datadog/datadog-api-client');
    const clock = new VirtualClock(NOW);
    ref = await startEventsReference({ clock });
    const { vars } = ref;
    const inner = new dd.client.IsomorphicFetchHttpLibrary();
    const renaming: InstanceType<Dd['client']['IsomorphicFetchHttpLibrary']> = Object.assign(Object.create(inner) as typeof inner, {
      send(request: Parameters<typeof inner.send>[0]) {
        const headers = request.getHeaders();
        for (const [name, value] of Object.entries(headers)) {
          const neutral = RENAMED[name.toLowerCase()];
          if (neutral === undefined) continue;
          // the context keeps headers in a plain object: drop the vendor's name, set the neutral one
          delete headers[name];
          request.setHeaderParam(neutral, value);
        }
        sentHeaders.push(Object.keys(request.getHeaders()).map((h) => h.toLowerCase()));
        return inner.send(request);
      },
    });
    const mon = new URL(String(vars.mon_url));
    const ipRanges = new URL(String(vars.ip_ranges_url));
    conf = dd.client.createConfiguration({
      authMethods: { apiKeyAuth: String(vars.mon_api_key), appKeyAuth: String(vars.mon_app_key) },
      httpApi: renaming,
      // server 1 is `{protocol}://{name}`; the IP ranges operation has its own list, index 1 alike
      serverIndex: 1,
      operationServerIndices: { 'v1.IPRangesApi.getIPRanges': 1 },
      enableRetry: false,
    });
    conf.setServerVariables(serverVariables(mon));
    // setServerVariables gives every operation server the same variables, so the IP ranges
    // service (its own base URL) gets a configuration of its own
    ipConf = dd.client.createConfiguration({ httpApi: renaming, serverIndex: 1, operationServerIndices: { 'v1.IPRangesApi.getIPRanges': 1 }, enableRetry: false });
    ipConf.setServerVariables(serverVariables(ipRanges));
  }, 60_000);

  afterAll(async () => {
    await ref?.stop();
  });

  it('sends the neutral key names through its transport, never the vendor ones', async () => {
    await new dd.v1.EventsApi(conf).listEvents({ start: Math.floor((NOW - HOUR) / 1000), end: Math.floor(NOW / 1000) });
    const last = sentHeaders.at(-1) ?? [];
    expect(last).toEqual(expect.arrayContaining(['mon-api-key', 'mon-application-key']));
    expect(last).not.toContain('dd-api-key');
  });

  it('reads events v1 lists, including a page of unaggregated events', async () => {
    const api = new dd.v1.EventsApi(conf);
    const all = await api.listEvents({ start: Math.floor((NOW - 18 * HOUR) / 1000), end: Math.floor(NOW / 1000) });
    expect(all.events?.length).toBeGreaterThan(0);
    expect(unparsed(all)).toEqual([]);
    const first = all.events?.[0];
    // id_str keeps the exact int64 the number form cannot hold in a JS number
    expect(first?.idStr).toMatch(/^[0-9]+$/);
    // JSON.parse rounds the number form: the client's `id` differs from `idStr` beyond 2^53
    const big = (all.events ?? []).filter((e) => e.idStr !== undefined && BigInt(e.idStr) > BigInt(Number.MAX_SAFE_INTEGER));
    expect(big.length).toBeGreaterThan(0);
    expect(big.some((e) => String(BigInt(e.id ?? 0)) !== e.idStr)).toBe(true);
    const page = await api.listEvents({ start: Math.floor((NOW - 18 * HOUR) / 1000), end: Math.floor(NOW / 1000), unaggregated: true, page: 0 });
    expect(unparsed(page)).toEqual([]);
  });

  it('posts an event v1 and reads the created event back', async () => {
    const api = new dd.v1.EventsApi(conf);
    const created = await api.createEvent({ body: { title: 'deploy finished', text: 'build 42 is live', tags: ['env:prod'], alertType: 'success', dateHappened: Math.floor(NOW / 1000) } });
    expect(created.status).toBe('ok');
    expect(created.event?.title).toBe('deploy finished');
    expect(unparsed(created)).toEqual([]);
  });

  it('rejects an invalid post with an ApiException carrying the error body', async () => {
    const api = new dd.v1.EventsApi(conf);
    const failure = await api.createEvent({ body: { title: 'too long', text: 'x'.repeat(4001) } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(dd.client.ApiException);
    expect((failure as { code?: number }).code).toBe(400);
  });

  it('reads events v2 and walks every page with its cursor', async () => {
    const api = new dd.v2.EventsApi(conf);
    const params = { filterFrom: String(NOW - 18 * HOUR), filterTo: String(NOW), pageLimit: 25 };
    const one = await api.listEvents(params);
    expect(one.data?.length).toBeGreaterThan(0);
    expect(unparsed(one)).toEqual([]);
    const seen: string[] = [];
    for await (const event of api.listEventsWithPagination(params)) {
      expect(unparsed(event)).toEqual([]);
      seen.push(String(event.id));
    }
    expect(seen.length).toBeGreaterThan(25);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('is refused without the renaming transport: the reference takes only the neutral key names', async () => {
    const plain = dd.client.createConfiguration({
      authMethods: { apiKeyAuth: String(ref?.vars.mon_api_key), appKeyAuth: String(ref?.vars.mon_app_key) },
      serverIndex: 1,
      enableRetry: false,
    });
    plain.setServerVariables(serverVariables(new URL(String(ref?.vars.mon_url))));
    const failure = await new dd.v1.EventsApi(plain).listEvents({ start: Math.floor((NOW - HOUR) / 1000), end: Math.floor(NOW / 1000) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((failure as { code?: number }).code).toBe(403);
  });

  it('reads the IP ranges', async () => {
    const ranges = await new dd.v1.IPRangesApi(ipConf).getIPRanges();
    expect(ranges.version).toBeGreaterThan(0);
    expect(unparsed(ranges)).toEqual([]);
  });
});
