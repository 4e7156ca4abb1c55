import { request } from 'undici';
import { startMerchantServer, type MerchantServerOptions, type RunningMerchantServer } from '../../../reference/merchant/server/server.js';
import { describeFaultProbes } from '../../helpers/fault-probes.js';
import { FAULTS } from '../../fixtures/merchant/faults/faults.js';

interface Got {
  status: number;
  json: Record<string, unknown>;
}

/** A client of one running service, below its version prefix (or another one). */
function client(s: RunningMerchantServer, prefix = '/content/v2.1') {
  const call = async (method: string, path: string, body?: unknown): Promise<Got> => {
    const res = await request(`${s.url}${prefix}${path}`, {
      method: method as 'GET',
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      json = {};
    }
    return { status: res.statusCode, json };
  };
  return { call, m: s.merchantId };
}

type Client = ReturnType<typeof client>;

const SOURCE = { merchantCenterDestination: { displayName: 'Shop', currencyCode: 'USD', attributionSettings: { attributionLookbackWindowInDays: 30, attributionModel: 'CROSS_CHANNEL_LAST_CLICK' } } };
const PRODUCT = { offerId: 'sku1', title: 'Shirt', contentLanguage: 'en', targetCountry: 'US', channel: 'online' };

async function newSource({ call, m }: Client): Promise<string> {
  return String((await call('POST', `/${m}/conversionsources`, SOURCE)).json['conversionSourceId']);
}

async function labelsOf({ call, m }: Client, account: string): Promise<unknown> {
  return (await call('GET', `/${m}/accounts/${account}`)).json['labelIds'];
}

/**
 * One observation per fault, true when the service shows the fault. Each runs against the clean
 * reference (must be false) and against the fault's service (must be true), so a probe that
 * cannot tell them apart fails here.
 */
const PROBES: Record<string, (c: Client, s: RunningMerchantServer) => Promise<boolean>> = {
  'claimwebsite-not-served': async ({ call, m }) => (await call('POST', `/${m}/accounts/${m}/claimwebsite`)).status === 404,
  'products-update-put': async ({ call, m }) => {
    const id = String((await call('POST', `/${m}/products`, PRODUCT)).json['id']);
    return (await call('PATCH', `/${m}/products/${encodeURIComponent(id)}`, { title: 'New' })).status === 405;
  },
  'products-batch-under-merchant': async ({ call, m }) => {
    const right = await call('POST', '/products/batch', { entries: [{ batchId: 1, method: 'get', productId: 'x' }] });
    const wrong = await call('POST', `/${m}/products/batch`, { entries: [{ batchId: 1, method: 'get', productId: 'x' }] });
    return right.status === 404 && wrong.status === 200;
  },
  'conversion-delete-destroys': async (c) => {
    const id = await newSource(c);
    await c.call('DELETE', `/${c.m}/conversionsources/${id}`);
    return (await c.call('GET', `/${c.m}/conversionsources/${id}`)).status === 404;
  },
  'undelete-active-accepted': async (c) => {
    const id = await newSource(c);
    return (await c.call('POST', `/${c.m}/conversionsources/${id}:undelete`)).status === 200;
  },
  'delete-archived-accepted': async (c) => {
    const id = await newSource(c);
    await c.call('DELETE', `/${c.m}/conversionsources/${id}`);
    return (await c.call('DELETE', `/${c.m}/conversionsources/${id}`)).status === 204;
  },
  'undelete-stays-archived': async (c) => {
    const id = await newSource(c);
    await c.call('DELETE', `/${c.m}/conversionsources/${id}`);
    const undeleted = await c.call('POST', `/${c.m}/conversionsources/${id}:undelete`);
    return undeleted.status === 200 && (await c.call('GET', `/${c.m}/conversionsources/${id}`)).json['state'] === 'ARCHIVED';
  },
  'batch-drops-last-entry': async ({ call }) => {
    const r = await call('POST', '/accounttax/batch', { entries: [{ batchId: 1, method: 'get' }, { batchId: 2, method: 'get' }] });
    return (r.json['entries'] as unknown[]).length === 1;
  },
  'label-create-assigns': async (c) => {
    const label = String((await c.call('POST', `/accounts/${c.m}/labels`, { name: 'Vip' })).json['labelId']);
    return JSON.stringify(await labelsOf(c, c.m)).includes(label);
  },
  'label-delete-keeps-assignment': async (c) => {
    const sub = String((await c.call('POST', `/${c.m}/accounts`, { name: 'Sub' })).json['id']);
    const label = String((await c.call('POST', `/accounts/${c.m}/labels`, { name: 'Vip' })).json['labelId']);
    await c.call('POST', `/${c.m}/accounts/${sub}/updatelabels`, { labelIds: [label] });
    await c.call('DELETE', `/accounts/${c.m}/labels/${label}`);
    return JSON.stringify(await labelsOf(c, sub)).includes(label);
  },
  'deliverytime-create-conflict': async ({ call, m }) => {
    const body = { productId: { productId: 'online:en:US:sku5' }, areaDeliveryTimes: [{ deliveryArea: { countryCode: 'US' } }] };
    await call('POST', `/${m}/productdeliverytime`, body);
    return (await call('POST', `/${m}/productdeliverytime`, body)).status === 409;
  },
  'checkout-delete-keeps-enrollment': async ({ call, m }) => {
    const path = `/${m}/freelistingsprogram/checkoutsettings`;
    await call('POST', path, { uriSettings: { checkoutUriTemplate: 'https://shop.example/{id}' } });
    const deleted = await call('DELETE', path);
    return deleted.status === 204 && (await call('GET', path)).status === 200;
  },
  'pubsub-get-ignores-put': async ({ call, m }) => {
    await call('PUT', `/${m}/pubsubnotificationsettings`, { cloudTopicName: 'projects/p/topics/t' });
    return (await call('GET', `/${m}/pubsubnotificationsettings`)).json['cloudTopicName'] !== 'projects/p/topics/t';
  },
  'authinfo-other-merchant': async ({ call, m }) => JSON.stringify((await call('GET', '/accounts/authinfo')).json['accountIdentifiers']) !== JSON.stringify([{ merchantId: m }]),
  'accounts-list-omits-newest': async ({ call, m }) => {
    await call('POST', `/${m}/accounts`, { name: 'Older' });
    const newest = String((await call('POST', `/${m}/accounts`, { name: 'Newest' })).json['id']);
    const listed = (await call('GET', `/${m}/accounts`)).json['resources'] as { id: string }[];
    return !listed.some((a) => a.id === newest) && listed.length === 1;
  },
  'product-get-after-delete': async ({ call, m }) => {
    const id = encodeURIComponent(String((await call('POST', `/${m}/products`, PRODUCT)).json['id']));
    const deleted = await call('DELETE', `/${m}/products/${id}`);
    return deleted.status === 204 && (await call('GET', `/${m}/products/${id}`)).status === 200;
  },
  'region-patch-not-kept': async ({ call, m }) => {
    const id = String((await call('POST', `/${m}/regions`, { displayName: 'Old', postalCodeArea: { regionCode: 'US' } })).json['regionId']);
    const patched = await call('PATCH', `/${m}/regions/${id}`, { displayName: 'New' });
    return patched.json['displayName'] === 'New' && (await call('GET', `/${m}/regions/${id}`)).json['displayName'] === 'Old';
  },
  'accounts-list-not-served': async ({ call, m }) => (await call('GET', `/${m}/accounts`)).status === 405 && (await call('GET', '/accounts/authinfo')).status === 200,
  'regions-patch-not-served': async ({ call, m }) => {
    const id = String((await call('POST', `/${m}/regions`, { displayName: 'Old', postalCodeArea: { regionCode: 'US' } })).json['regionId']);
    return (await call('PATCH', `/${m}/regions/${id}`, { displayName: 'New' })).status === 405 && (await call('GET', `/${m}/regions/${id}`)).status === 200;
  },
  'collections-create-not-served': async ({ call, m }) => (await call('POST', `/${m}/collections`, { id: 'col-probe' })).status === 405 && (await call('GET', `/${m}/collections`)).status === 200,
  'conversionsources-create-not-served': async ({ call, m }) => (await call('POST', `/${m}/conversionsources`, SOURCE)).status === 405 && (await call('GET', `/${m}/conversionsources`)).status === 200,
  'accounts-insert-not-served': async ({ call, m }) => (await call('POST', `/${m}/accounts`, { name: 'Sub' })).status === 405 && (await call('GET', `/${m}/accounts`)).status === 200,
  'version-prefix-v2': async (_c, s) => {
    const v21 = await client(s).call('GET', '/accounts/authinfo');
    const v2 = await client(s, '/content/v2').call('GET', '/accounts/authinfo');
    return v21.status === 404 && v2.status === 200;
  },
};

describeFaultProbes(
  'planted-fault merchant services show their fault',
  FAULTS,
  Object.fromEntries(Object.entries(PROBES).map(([name, probe]) => [name, (s: RunningMerchantServer) => probe(client(s), s)])),
  (options) => startMerchantServer(options ?? {}),
);
