import { SpecgateError } from '../../../src/errors.js';

/**
 * The launch contract between specgate (playing the merchant catalog service of spec 001 part D)
 * and a client of that service under test: the harness starts the client as a process with these
 * environment variables, and judges every request the client sends. See README.md in this folder.
 */

/** Environment variable names of the launch contract. */
export const MERCHANT_CLIENT_ENV = {
  /** Root URL of the played service; the API is below `${root}/content/v2.1`. */
  url: 'SPECGATE_MERCHANT_URL',
  /** The caller's merchant account (it exists). */
  merchantId: 'SPECGATE_MERCHANT_ID',
  /** A comparison-shopping-service group (it exists). */
  cssGroupId: 'SPECGATE_CSS_GROUP_ID',
  /** One domain of that group (it exists). */
  cssDomainId: 'SPECGATE_CSS_DOMAIN_ID',
} as const;

/** The version prefix every path of the merchant tables begins with (D, Versioning 1). */
export const MERCHANT_API_PREFIX = '/content/v2.1';

export interface MerchantClientEnv {
  /** Root URL without a trailing slash. */
  url: string;
  merchantId: string;
  cssGroupId: string;
  cssDomainId: string;
}

/** Exit statuses of the bundled clients (a client under test may use any non-zero status for failures). */
export const MERCHANT_CLIENT_EXIT = {
  /** Every call was sent. */
  ok: 0,
  /** The service could not be reached, or a call could not be made (an ID the service never answered). */
  failed: 1,
  /** The environment does not follow the launch contract. */
  usage: 2,
} as const;

/** Reads and checks the contract's variables; throws SG_CONFIG naming the one that is missing or wrong. */
export function readMerchantClientEnv(env: NodeJS.ProcessEnv): MerchantClientEnv {
  const get = (name: string): string => {
    const v = env[name];
    if (v === undefined || v.trim() === '') throw new SpecgateError('SG_CONFIG', `${name} is not set: start this client with the variables of the merchant client launch contract (reference/merchant/client/README.md)`);
    return v.trim();
  };
  const url = get(MERCHANT_CLIENT_ENV.url).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(url)) throw new SpecgateError('SG_CONFIG', `${MERCHANT_CLIENT_ENV.url} must be an http(s) URL, not "${url}": set it to the root URL of the merchant service`);
  return {
    url,
    merchantId: get(MERCHANT_CLIENT_ENV.merchantId),
    cssGroupId: get(MERCHANT_CLIENT_ENV.cssGroupId),
    cssDomainId: get(MERCHANT_CLIENT_ENV.cssDomainId),
  };
}

/** The variables for a launch, as the harness sets them. */
export function merchantClientEnvVars(e: MerchantClientEnv): Record<string, string> {
  return {
    [MERCHANT_CLIENT_ENV.url]: e.url,
    [MERCHANT_CLIENT_ENV.merchantId]: e.merchantId,
    [MERCHANT_CLIENT_ENV.cssGroupId]: e.cssGroupId,
    [MERCHANT_CLIENT_ENV.cssDomainId]: e.cssDomainId,
  };
}
