import { MERCHANT_API_PREFIX, type MerchantClientEnv } from './contract.js';

/**
 * One call of the reference merchant client: an operation of spec 001 part D ("Endpoints / D.
 * Merchant catalog API") with the IDs it needs and the ID its answer gives. The calls are
 * written out (calls-*.ts) rather than read from the suite's api.yaml: the client is a second,
 * independent reading of the spec's tables, so the suite's check of it can catch a slip in the
 * table as well as in the client, and the client needs no YAML stack or suite files at run time.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** IDs the client knows by name: those of the launch contract, and those the service answered. */
export type Ids = Record<string, string>;

export interface Call {
  /** Operation ID as the spec's tables name it (`<group>.<name>`, `accounts.labels.create`). */
  op: string;
  method: HttpMethod;
  /** Path template below the version prefix; each `{name}` is filled with the ID of that name. */
  path: string;
  /** Path parameter -> the ID that fills it, where that is not the ID of the same name. */
  use?: Record<string, string>;
  /** Query parameters (the spec shows none; these are what the operation needs to mean something). */
  query?: Record<string, string>;
  /** The JSON body, made from the IDs known when the call is sent. */
  body?: (ids: Ids) => unknown;
  /**
   * An ID the answer gives, kept under `name` for later calls: the answer's field `from`, or
   * `otherwise` when the answer has none and the client chose the ID itself (a store code).
   */
  keep?: { name: string; from: string; otherwise?: string };
  /** The version prefix the path is below; every call of the reference client uses the spec's. */
  prefix?: string;
}

/** The IDs every run starts with: the contract's accounts and CSS domain, and a country. */
export function contractIds(env: MerchantClientEnv): Ids {
  return {
    merchantId: env.merchantId,
    // A merchant acting on its own account, and making point-of-sale calls for itself.
    accountId: env.merchantId,
    targetMerchantId: env.merchantId,
    cssGroupId: env.cssGroupId,
    cssDomainId: env.cssDomainId,
    country: 'US',
  };
}

/** The call's path with its IDs filled in (percent-encoded), or the names of the IDs not known. */
export function fillPath(call: Call, ids: Ids): { path: string } | { missing: string[] } {
  const missing: string[] = [];
  const path = call.path.replace(/\{([^}]+)\}/g, (_all, param: string) => {
    const name = call.use?.[param] ?? param;
    const value = ids[name];
    if (value === undefined || value === '') {
      missing.push(name);
      return '';
    }
    return encodeURIComponent(value);
  });
  if (missing.length) return { missing };
  return { path: `${call.prefix ?? MERCHANT_API_PREFIX}${path}` };
}

/** A custombatch body carrying one `get` call (spec: custombatch carries many calls in one request). */
export function batchOfOneGet(ids: Ids, target: Record<string, string | undefined>): { entries: Record<string, unknown>[] } {
  return { entries: [{ batchId: 1, merchantId: ids.merchantId, method: 'get', ...target }] };
}
