import { asObject, text, type Json } from '../../model/json.js';
import { failure, ok, type Answer, type Handler, type HandlerContext } from '../answers.js';

/** How an entry of one method becomes a call of the group's single operation. */
interface EntryMethod {
  operation: string;
  /** Path parameters from the entry (`merchantId` is the entry's, or the seeded merchant). */
  params(e: Json, merchantId: string): Record<string, string | undefined>;
  body?(e: Json): unknown;
  /** Field of the answer entry holding the result (the group's by default; none for `''`). */
  result?: string;
}

interface BatchGroup {
  kind: string;
  entryKind?: string;
  result: string;
  methods: Record<string, EntryMethod>;
}

const id = (e: Json, field: string): string | undefined => text(e[field]);
const self = (field: string) => (e: Json, m: string) => ({ merchantId: m, [field]: id(e, field) ?? m });
const named = (field: string) => (e: Json, m: string) => ({ merchantId: m, [field]: id(e, field) });
const merchantOnly = (_e: Json, m: string) => ({ merchantId: m });
const fieldOf = (field: string) => (e: Json) => e[field];

/**
 * The custombatch of every group (001 D: "a POST to /<group>/batch without merchant identifier
 * in the path"): `{entries: [{batchId, merchantId?, method, ...}]}`. Each entry runs as the
 * group's single operation would (the same handlers), and the answer holds one entry per
 * request entry, in order, with its batchId and its result or its `errors`.
 */
const GROUPS: Record<string, BatchGroup> = {
  accounts: {
    kind: 'content#accountsCustomBatchResponse',
    entryKind: 'content#accountsCustomBatchResponseEntry',
    result: 'account',
    methods: {
      get: { operation: 'accounts.get', params: self('accountId') },
      insert: { operation: 'accounts.insert', params: merchantOnly, body: fieldOf('account') },
      update: { operation: 'accounts.update', params: named('accountId'), body: fieldOf('account') },
      delete: { operation: 'accounts.delete', params: named('accountId'), result: '' },
      claimwebsite: { operation: 'accounts.claimwebsite', params: self('accountId'), result: '' },
      link: { operation: 'accounts.link', params: self('accountId'), body: fieldOf('linkRequest'), result: '' },
    },
  },
  accountstatuses: { kind: 'content#accountstatusesCustomBatchResponse', result: 'accountStatus', methods: { get: { operation: 'accountstatuses.get', params: self('accountId') } } },
  accounttax: {
    kind: 'content#accounttaxCustomBatchResponse',
    entryKind: 'content#accounttaxCustomBatchResponseEntry',
    result: 'accountTax',
    methods: {
      get: { operation: 'accounttax.get', params: self('accountId') },
      update: { operation: 'accounttax.update', params: self('accountId'), body: fieldOf('accountTax') },
    },
  },
  datafeeds: {
    kind: 'content#datafeedsCustomBatchResponse',
    result: 'datafeed',
    methods: {
      get: { operation: 'datafeeds.get', params: named('datafeedId') },
      insert: { operation: 'datafeeds.insert', params: merchantOnly, body: fieldOf('datafeed') },
      update: { operation: 'datafeeds.update', params: named('datafeedId'), body: fieldOf('datafeed') },
      delete: { operation: 'datafeeds.delete', params: named('datafeedId'), result: '' },
      fetchnow: { operation: 'datafeeds.fetchnow', params: named('datafeedId'), result: '' },
    },
  },
  datafeedstatuses: { kind: 'content#datafeedstatusesCustomBatchResponse', result: 'datafeedStatus', methods: { get: { operation: 'datafeedstatuses.get', params: named('datafeedId') } } },
  liasettings: {
    kind: 'content#liasettingsCustomBatchResponse',
    entryKind: 'content#liasettingsCustomBatchResponseEntry',
    result: 'liaSettings',
    methods: {
      get: { operation: 'liasettings.get', params: self('accountId') },
      update: { operation: 'liasettings.update', params: self('accountId'), body: fieldOf('liaSettings') },
    },
  },
  localinventory: {
    kind: 'content#localinventoryCustomBatchResponse',
    entryKind: 'content#localinventoryCustomBatchResponseEntry',
    result: 'localInventory',
    methods: { insert: { operation: 'localinventory.insert', params: named('productId'), body: fieldOf('localInventory') } },
  },
  regionalinventory: {
    kind: 'content#regionalinventoryCustomBatchResponse',
    entryKind: 'content#regionalinventoryCustomBatchResponseEntry',
    result: 'regionalInventory',
    methods: { insert: { operation: 'regionalinventory.insert', params: named('productId'), body: fieldOf('regionalInventory') } },
  },
  pos: {
    kind: 'content#posCustomBatchResponse',
    entryKind: 'content#posCustomBatchResponseEntry',
    result: 'store',
    methods: {
      get: { operation: 'pos.get', params: (e, m) => ({ merchantId: m, targetMerchantId: id(e, 'targetMerchantId') ?? m, storeCode: id(e, 'storeCode') }) },
      insert: { operation: 'pos.insert', params: (e, m) => ({ merchantId: m, targetMerchantId: id(e, 'targetMerchantId') ?? m }), body: fieldOf('store') },
      delete: { operation: 'pos.delete', params: (e, m) => ({ merchantId: m, targetMerchantId: id(e, 'targetMerchantId') ?? m, storeCode: id(e, 'storeCode') }), result: '' },
      inventory: { operation: 'pos.inventory', params: (e, m) => ({ merchantId: m, targetMerchantId: id(e, 'targetMerchantId') ?? m }), body: fieldOf('inventory'), result: 'inventory' },
      sale: { operation: 'pos.sale', params: (e, m) => ({ merchantId: m, targetMerchantId: id(e, 'targetMerchantId') ?? m }), body: fieldOf('sale'), result: 'sale' },
    },
  },
  products: {
    kind: 'content#productsCustomBatchResponse',
    entryKind: 'content#productsCustomBatchResponseEntry',
    result: 'product',
    methods: {
      get: { operation: 'products.get', params: named('productId') },
      insert: { operation: 'products.insert', params: merchantOnly, body: fieldOf('product') },
      update: { operation: 'products.update', params: named('productId'), body: fieldOf('product') },
      delete: { operation: 'products.delete', params: named('productId'), result: '' },
    },
  },
  productstatuses: {
    kind: 'content#productstatusesCustomBatchResponse',
    entryKind: 'content#productstatusesCustomBatchResponseEntry',
    result: 'productStatus',
    methods: { get: { operation: 'productstatuses.get', params: named('productId') } },
  },
  returnaddress: {
    kind: 'content#returnaddressCustomBatchResponse',
    result: 'returnAddress',
    methods: {
      get: { operation: 'returnaddress.get', params: named('returnAddressId') },
      insert: { operation: 'returnaddress.insert', params: merchantOnly, body: fieldOf('returnAddress') },
      delete: { operation: 'returnaddress.delete', params: named('returnAddressId'), result: '' },
    },
  },
  returnpolicy: {
    kind: 'content#returnpolicyCustomBatchResponse',
    result: 'returnPolicy',
    methods: {
      get: { operation: 'returnpolicy.get', params: named('returnPolicyId') },
      insert: { operation: 'returnpolicy.insert', params: merchantOnly, body: fieldOf('returnPolicy') },
      delete: { operation: 'returnpolicy.delete', params: named('returnPolicyId'), result: '' },
    },
  },
  shippingsettings: {
    kind: 'content#shippingsettingsCustomBatchResponse',
    entryKind: 'content#shippingsettingsCustomBatchResponseEntry',
    result: 'shippingSettings',
    methods: {
      get: { operation: 'shippingsettings.get', params: self('accountId') },
      update: { operation: 'shippingsettings.update', params: self('accountId'), body: fieldOf('shippingSettings') },
    },
  },
};

/** The answer's `errors` for a failed entry: the failed call's Google-style error. */
function entryErrors(a: Answer): Json {
  const err = asObject(asObject(a.body)['error']);
  return { code: a.status, message: text(err['message']) ?? `the entry failed with status ${a.status}`, errors: Array.isArray(err['errors']) ? err['errors'] : [] };
}

function runEntry(group: BatchGroup, name: string, raw: unknown, ctx: HandlerContext): Json {
  const e = asObject(raw);
  const head: Json = { ...(group.entryKind ? { kind: group.entryKind } : {}), ...(e['batchId'] === undefined ? {} : { batchId: e['batchId'] }) };
  const refuse = (message: string): Json => ({ ...head, errors: entryErrors(failure(400, message)) });
  const methodName = (text(e['method']) ?? '').toLowerCase();
  const method = group.methods[methodName];
  if (!method) return refuse(`method "${text(e['method']) ?? ''}" is not one a ${name} batch entry takes; use one of ${Object.keys(group.methods).join(', ')}`);
  const params = method.params(e, text(e['merchantId']) ?? ctx.catalog.merchantId);
  const absent = Object.entries(params).filter(([, v]) => v === undefined || v === '').map(([k]) => k);
  if (absent.length) return refuse(`a ${name} batch entry with method ${methodName} needs ${absent.join(', ')}`);
  const handler = ctx.handlerOf(method.operation);
  if (!handler) return refuse(`method ${methodName} is not served`);
  const a = handler({ operationId: method.operation, params: params as Record<string, string>, query: new URLSearchParams(), body: method.body?.(e) }, ctx);
  if (a.status < 200 || a.status >= 300) return { ...head, errors: entryErrors(a) };
  const key = method.result ?? group.result;
  return key && a.body !== undefined ? { ...head, [key]: a.body } : head;
}

function batchHandler(name: string, group: BatchGroup): Handler {
  return (call, ctx) => {
    const entries = asObject(call.body)['entries'];
    const list = Array.isArray(entries) ? entries : [];
    return ok({ kind: group.kind, entries: list.map((e) => runEntry(group, name, e, ctx)) });
  };
}

/** `<group>.custombatch` for every group that has one. */
export const BATCH_HANDLERS: Record<string, Handler> = Object.fromEntries(Object.entries(GROUPS).map(([name, group]) => [`${name}.custombatch`, batchHandler(name, group)]));
