import { SpecgateError } from '../../../src/errors.js';

/**
 * The launch contract between specgate (playing the affiliate platform of spec 001 part E) and
 * an integration under test: a web application that registers leads and sends visitors on to
 * their autologin target. See README.md in this folder.
 */
export const AFFILIATE_INTEGRATION_ENV = {
  affiliateUrl: 'SPECGATE_AFFILIATE_URL',
  apiKey: 'SPECGATE_AFFILIATE_API_KEY',
  port: 'PORT',
} as const;

/** The pages an integration serves on 127.0.0.1:$PORT. */
export const INTEGRATION_PAGES = {
  /** GET: the sign-up form; its submission registers the lead (E1). */
  signup: '/signup',
  /** GET `?leadRequestID=<id>`: sends the visitor to the lead's autologin target (E2). */
  autologin: '/autologin',
} as const;

/** The form fields the sign-up page has at least (E, Lead request: the required fields a visitor types). */
export const SIGNUP_FIELDS = ['email', 'firstName', 'lastName', 'password', 'phone'] as const;

/**
 * The platform paths below `SPECGATE_AFFILIATE_URL`: specgate's documented default layout (the
 * spec gives only the autologin path, E2).
 */
export const PLATFORM_PATHS = {
  registerLead: '/api/v2/leads',
  autologin: '/api/v2/brokers/login/details',
} as const;

/** The header the key travels in (E, Authentication 1). */
export const API_KEY_HEADER = 'Api-Key';

export interface IntegrationEnv {
  affiliateUrl: string;
  apiKey: string;
  port: number;
}

/** Exit statuses of the bundled integrations. */
export const INTEGRATION_EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Reads and checks the contract's variables; throws SG_CONFIG naming the one that is missing or wrong. */
export function readIntegrationEnv(env: NodeJS.ProcessEnv): IntegrationEnv {
  const read = (name: string): string => {
    const v = env[name]?.trim();
    if (!v) throw new SpecgateError('SG_CONFIG', `${name} is not set: start this integration with the variables of its launch contract (reference/affiliate/integration/README.md)`);
    return v;
  };
  const affiliateUrl = read(AFFILIATE_INTEGRATION_ENV.affiliateUrl).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(affiliateUrl)) throw new SpecgateError('SG_CONFIG', `${AFFILIATE_INTEGRATION_ENV.affiliateUrl} must be an http(s) URL, not "${affiliateUrl}"`);
  const port = Number(read(AFFILIATE_INTEGRATION_ENV.port));
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new SpecgateError('SG_CONFIG', `${AFFILIATE_INTEGRATION_ENV.port} must be a port number, not "${env[AFFILIATE_INTEGRATION_ENV.port] ?? ''}"`);
  return { affiliateUrl, apiKey: read(AFFILIATE_INTEGRATION_ENV.apiKey), port };
}
