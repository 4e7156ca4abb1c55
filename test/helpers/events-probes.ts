/**
 * The requests of the events cases that opted in to be judged from a recording (`passive:
 * judge`), as a client that asks them of the reference would send them: the recording tests
 * send them after the reference client's traffic, so a recording holds what those cases judge.
 */
import { EVENTS_CLIENT_ENV } from '../../reference/events/client/contract.js';
import { MON_API_KEY, MON_APP_KEY } from '../../reference/events/model/monitor-keys.js';
import { SEEDED_APM_ENV, SEEDED_APM_SERVICE } from '../../reference/events/model/dependencies.js';
import { SEEDED_PLATFORM } from '../../reference/events/model/platform-seed-accounts.js';
import { IP_RANGES_PREFIX, PLATFORM_PREFIX } from '../../reference/events/server/routes.js';

const PLATFORM_HEADERS = { authorization: `Bearer ${SEEDED_PLATFORM.token}`, 'x-platform-api-version': '2022-11-28', accept: 'application/vnd.platform+json' };
const KEYS = { 'mon-api-key': MON_API_KEY, 'mon-application-key': MON_APP_KEY };
const JSON_ACCEPT = { accept: 'application/json' };
export const DEPS = `/api/v1/service_dependencies`;
const P = SEEDED_PLATFORM;

/**
 * The dependency map and its refusals, the IP ranges with and without keys, the lists without
 * one key or the other, the versions in the path, unknown platform items and a user's
 * organization dashboard without credentials: paths below the reference server's root.
 */
export const PROBES: readonly { path: string; headers: Record<string, string> }[] = [
  { path: `${DEPS}?env=${SEEDED_APM_ENV}`, headers: KEYS },
  { path: `/api/v2/events`, headers: KEYS },
  { path: DEPS, headers: { ...KEYS, ...JSON_ACCEPT } },
  { path: `${DEPS}/${SEEDED_APM_SERVICE}`, headers: { ...KEYS, ...JSON_ACCEPT } },
  { path: `${IP_RANGES_PREFIX}/`, headers: { ...KEYS, ...JSON_ACCEPT } },
  { path: `${IP_RANGES_PREFIX}/`, headers: JSON_ACCEPT },
  ...[{ 'mon-application-key': MON_APP_KEY }, { 'mon-api-key': MON_API_KEY }].flatMap((key) =>
    [`${DEPS}?env=${SEEDED_APM_ENV}`, `${DEPS}/${SEEDED_APM_SERVICE}?env=${SEEDED_APM_ENV}`, '/api/v1/events?start=0&end=4102444800', '/api/v2/events'].map((path) => ({ path, headers: { ...key, ...JSON_ACCEPT } })),
  ),
  { path: `${PLATFORM_PREFIX}/networks/specgate-no-such-owner/no-such-repo/events`, headers: PLATFORM_HEADERS },
  { path: `${PLATFORM_PREFIX}/repos/${P.owner}/${P.repo}/issues/events/999999999`, headers: PLATFORM_HEADERS },
  { path: `${PLATFORM_PREFIX}/users/${P.username}/events/orgs/${P.org}`, headers: {} },
];

/**
 * The environment of the reference events client pointed at `url` (a recording proxy or
 * recorder in front of the reference server): the monitoring API, IP ranges and platform below
 * it, with the seeded keys, token and repository.
 */
export function referenceClientEnv(url: string): Record<string, string> {
  const p = SEEDED_PLATFORM;
  return {
    [EVENTS_CLIENT_ENV.monUrl]: url,
    [EVENTS_CLIENT_ENV.ipRangesUrl]: `${url}${IP_RANGES_PREFIX}`,
    [EVENTS_CLIENT_ENV.monApiKey]: MON_API_KEY,
    [EVENTS_CLIENT_ENV.monAppKey]: MON_APP_KEY,
    [EVENTS_CLIENT_ENV.apiUrl]: `${url}${PLATFORM_PREFIX}`,
    [EVENTS_CLIENT_ENV.apiToken]: p.token,
    [EVENTS_CLIENT_ENV.owner]: p.owner,
    [EVENTS_CLIENT_ENV.repo]: p.repo,
  };
}
