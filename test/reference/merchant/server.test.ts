import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { VirtualClock } from '../../../src/engine/clock.js';
import { MERCHANT_HANDLERS } from '../../../reference/merchant/server/handlers/index.js';
import { merchantTable } from '../../../reference/merchant/server/route-table.js';
import { startMerchantReference } from '../../../reference/merchant/server/reference-target.js';
import { startMerchantServer, type RunningMerchantServer } from '../../../reference/merchant/server/server.js';

let server: RunningMerchantServer;
let api: string;

beforeAll(async () => {
  server = await startMerchantServer({ clock: new VirtualClock() });
  api = `${server.url}/content/v2.1`;
});
afterAll(() => server.stop());

interface Got {
  status: number;
  text: string;
  json: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

async function call(method: string, path: string, body?: unknown, raw?: string): Promise<Got> {
  const res = await request(`${api}${path}`, {
    method: method as 'GET',
    headers: body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {},
    ...(raw !== undefined ? { body: raw } : body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers };
}

const m = (): string => server.merchantId;
const product = (offerId: string) => ({ offerId, title: 'Blue shirt', contentLanguage: 'en', targetCountry: 'US', channel: 'online' });

describe('reference merchant service: routing', () => {
  it('has a handler for every operation of api.yaml, and none besides', () => {
    const ids = merchantTable().operations.map((o) => o.id).sort();
    expect(ids).toHaveLength(135);
    expect(Object.keys(MERCHANT_HANDLERS).sort()).toEqual(ids);
  });

  it('answers 404 for a path no operation has, and 405 with Allow for a known path and another method', async () => {
    const none = await call('GET', `/${m()}/nothing-here`);
    expect(none.status).toBe(404);
    expect(none.json).toMatchObject({ error: { code: 404 } });
    const wrong = await call('PUT', `/${m()}/products/online:en:US:sku1`, { title: 'x' });
    expect(wrong.status).toBe(405);
    expect(String(wrong.headers['allow'])).toContain('PATCH');
    expect(wrong.json).toMatchObject({ error: { code: 405 } });
  });

  it('serves the API only below /content/v2.1', async () => {
    const res = await request(`${server.url}/content/v2/accounts/authinfo`);
    await res.body.text();
    expect(res.statusCode).toBe(404);
    expect((await call('GET', '/accounts/authinfo')).status).toBe(200);
  });

  it('refuses a body that is not JSON with 400', async () => {
    expect((await call('POST', `/${m()}/products`, undefined, '{"offerId": ')).status).toBe(400);
  });

  it('accepts and ignores credentials: authinfo names the seeded merchant', async () => {
    const res = await request(`${api}/accounts/authinfo?key=anything`, { headers: { authorization: 'Bearer whatever' } });
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toEqual({ kind: 'content#accountsAuthInfoResponse', accountIdentifiers: [{ merchantId: m() }] });
  });

});

describe('reference merchant service: resources', () => {
  it('inserts, reads, merges, deletes a product; 204 has no body; gone is 404', async () => {
    const created = await call('POST', `/${m()}/products`, { ...product('sku100'), color: 'blue' });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ kind: 'content#product', id: 'online:en:US:sku100', color: 'blue', offerId: 'sku100' });
    const path = `/${m()}/products/${encodeURIComponent('online:en:US:sku100')}`;
    const patched = await call('PATCH', path, { title: 'Red shirt' });
    expect(patched.json).toMatchObject({ title: 'Red shirt', color: 'blue' });
    expect((await call('GET', path)).json).toMatchObject({ title: 'Red shirt', color: 'blue' });
    const listed = await call('GET', `/${m()}/products`);
    expect(listed.json['kind']).toBe('content#productsListResponse');
    expect((listed.json['resources'] as { id: string }[]).map((p) => p.id)).toContain('online:en:US:sku100');
    const deleted = await call('DELETE', path);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const gone = await call('GET', path);
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ error: { code: 404, message: expect.stringContaining('online:en:US:sku100') } });
  });

  it('replaces a datafeed on PUT', async () => {
    const id = String((await call('POST', `/${m()}/datafeeds`, { name: 'Feed', contentType: 'products', fileName: 'feed.xml' })).json['id']);
    const put = await call('PUT', `/${m()}/datafeeds/${id}`, { name: 'Feed two' });
    expect(put.json).toEqual({ kind: 'content#datafeed', id, name: 'Feed two' });
    expect((await call('GET', `/${m()}/datafeedstatuses/${id}`)).json).toMatchObject({ processingStatus: 'none' });
    expect((await call('POST', `/${m()}/datafeeds/${id}/fetchNow`)).status).toBe(200);
    expect((await call('GET', `/${m()}/datafeedstatuses/${id}`)).json).toMatchObject({ processingStatus: 'success', lastUploadDate: '2026-01-01T00:00:00.000Z' });
  });

  it('walks a conversion source through its states, undelete route included', async () => {
    const base = `/${m()}/conversionsources`;
    const id = String((await call('POST', base, { merchantCenterDestination: { displayName: 'Shop', currencyCode: 'USD' } })).json['conversionSourceId']);
    expect(id).toMatch(/^\d+$/);
    expect((await call('DELETE', `${base}/${id}`)).status).toBe(204);
    expect((await call('GET', `${base}/${id}`)).json).toMatchObject({ conversionSourceId: id, state: 'ARCHIVED' });
    expect((await call('DELETE', `${base}/${id}`)).status).toBe(400);
    const ids = async (q: string) => ((await call('GET', `${base}${q}`)).json['conversionSources'] as { conversionSourceId: string }[]).map((s) => s.conversionSourceId);
    expect(await ids('')).not.toContain(id);
    expect(await ids('?showDeleted=true')).toContain(id);
    const undeleted = await call('POST', `${base}/${id}:undelete`);
    expect(undeleted.status).toBe(200);
    expect(undeleted.json).toMatchObject({ state: 'ACTIVE' });
    expect((await call('POST', `${base}/${id}:undelete`)).status).toBe(400);
    expect((await call('POST', `${base}/404404:undelete`)).status).toBe(404);
  });

  it('answers a custombatch entry per request entry, in order, with results and per-entry errors', async () => {
    const r = await call('POST', '/products/batch', {
      entries: [
        { batchId: 7, merchantId: m(), method: 'insert', product: product('sku200') },
        { batchId: 3, method: 'get', productId: 'online:en:US:sku200' },
        { batchId: 9, method: 'get', productId: 'online:en:US:nothing' },
        { batchId: 1, method: 'frobnicate' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.json['kind']).toBe('content#productsCustomBatchResponse');
    const entries = r.json['entries'] as Record<string, unknown>[];
    expect(entries.map((e) => e['batchId'])).toEqual([7, 3, 9, 1]);
    expect(entries[0]).toMatchObject({ kind: 'content#productsCustomBatchResponseEntry', product: { id: 'online:en:US:sku200' } });
    expect(entries[1]).toMatchObject({ product: { offerId: 'sku200' } });
    expect(entries[2]).toMatchObject({ errors: { code: 404 } });
    expect(entries[3]).toMatchObject({ errors: { code: 400 } });
    const accounts = await call('POST', '/accounts/batch', { entries: [{ batchId: 1, method: 'get' }] });
    expect(accounts.json).toMatchObject({ kind: 'content#accountsCustomBatchResponse', entries: [{ batchId: 1, account: { id: m() } }] });
  });

  it('keeps a delivery time per product: create again replaces, get and delete by the product ID', async () => {
    const pid = 'online:en:US:sku300';
    const first = await call('POST', `/${m()}/productdeliverytime`, { productId: { productId: pid }, areaDeliveryTimes: [{ deliveryArea: { countryCode: 'US' } }] });
    expect(first.json['productId']).toEqual({ productId: pid });
    await call('POST', `/${m()}/productdeliverytime`, { productId: { productId: pid }, areaDeliveryTimes: [{ deliveryArea: { countryCode: 'US', postalCodeRange: { firstPostalCode: '10001' } } }] });
    const got = await call('GET', `/${m()}/productdeliverytime/${encodeURIComponent(pid)}`);
    expect(got.json).toMatchObject({ productId: { productId: pid }, areaDeliveryTimes: [{ deliveryArea: { postalCodeRange: { firstPostalCode: '10001' } } }] });
    expect((await call('DELETE', `/${m()}/productdeliverytime/${encodeURIComponent(pid)}`)).status).toBe(204);
    expect((await call('GET', `/${m()}/productdeliverytime/${encodeURIComponent(pid)}`)).status).toBe(404);
  });

  it('assigns labels only through updatelabels and unassigns them on delete', async () => {
    const sub = String((await call('POST', `/${m()}/accounts`, { name: 'Sub' })).json['id']);
    const label = String((await call('POST', `/accounts/${m()}/labels`, { name: 'Vip' })).json['labelId']);
    expect((await call('GET', `/${m()}/accounts/${sub}`)).json['labelIds']).toEqual([]);
    expect((await call('POST', `/${m()}/accounts/${sub}/updatelabels`, { labelIds: [label] })).json).toEqual({ kind: 'content#accountsUpdateLabelsResponse' });
    expect((await call('GET', `/${m()}/accounts/${sub}`)).json['labelIds']).toEqual([label]);
    expect((await call('GET', `/accounts/${m()}/labels`)).json['accountLabels']).toEqual([expect.objectContaining({ labelId: label })]);
    expect((await call('DELETE', `/accounts/${m()}/labels/${label}`)).status).toBe(204);
    expect((await call('GET', `/${m()}/accounts/${sub}`)).json['labelIds']).toEqual([]);
  });

  it('enrolls, answers and unenrolls checkout settings; stores pubsub settings', async () => {
    const path = `/${m()}/freelistingsprogram/checkoutsettings`;
    expect((await call('GET', path)).status).toBe(404);
    expect((await call('POST', path, { uriSettings: { checkoutUriTemplate: 'https://shop.example/{id}' } })).status).toBe(200);
    expect((await call('GET', path)).json).toMatchObject({ merchantId: m(), enrollmentState: 'ENROLLED' });
    expect((await call('DELETE', path)).status).toBe(204);
    expect((await call('GET', path)).status).toBe(404);
    const pubsub = `/${m()}/pubsubnotificationsettings`;
    expect((await call('GET', pubsub)).json).toEqual({ kind: 'content#pubsubNotificationSettings' });
    await call('PUT', pubsub, { cloudTopicName: 'projects/p/topics/t', registeredEvents: ['PRODUCT_STATUS_CHANGE'] });
    expect((await call('GET', pubsub)).json).toMatchObject({ cloudTopicName: 'projects/p/topics/t', registeredEvents: ['PRODUCT_STATUS_CHANGE'] });
  });

  it('counts calls per method in quotas', async () => {
    const quotas = (await call('GET', `/${m()}/quotas`)).json['methodQuotas'] as { method: string; quotaUsage: string }[];
    expect(Number(quotas.find((q) => q.method === 'products.insert')?.quotaUsage)).toBeGreaterThanOrEqual(1);
  });
});

describe('reference merchant service: every route', () => {
  it('answers no operation with a 5xx or 405 on its own route (table defaults, made-up item IDs)', async () => {
    const own = await startMerchantServer({});
    try {
      const defaults: Record<string, string> = { merchantId: own.merchantId, accountId: own.merchantId, targetMerchantId: own.merchantId, cssGroupId: own.cssGroupId, cssDomainId: own.cssDomainId, country: 'US' };
      const bad: string[] = [];
      for (const op of merchantTable().operations) {
        const path = op.path.replace(/\{([^}]+)\}/g, (_x, name: string) => encodeURIComponent(defaults[name] ?? 'made-up-id'));
        const json = op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
        const res = await request(`${own.url}/content/v2.1${path}`, { method: op.method as 'GET', ...(json ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) });
        const text = await res.body.text();
        if (![200, 204, 400, 404].includes(res.statusCode)) bad.push(`${op.id} ${op.method} ${path}: ${res.statusCode} ${text.slice(0, 120)}`);
      }
      expect(bad).toEqual([]);
    } finally {
      await own.stop();
    }
  });
});

describe('reference merchant target', () => {
  it('gives the variables the cases use', async () => {
    const ref = await startMerchantReference({ clock: new VirtualClock(), clientCommand: ['node', 'client.js'] });
    try {
      expect(ref.vars).toMatchObject({ merchant_id: ref.server.merchantId, css_group_id: ref.server.cssGroupId, css_domain_id: ref.server.cssDomainId, country: 'US', merchant_client_command: ['node', 'client.js'] });
      expect(String(ref.vars['merchant_url'])).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await ref.stop();
    }
  });
});
