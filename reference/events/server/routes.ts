/** Which service an operation belongs to: its errors take that service's shape. */
export type EventsArea = 'monitor' | 'platform';

/** One operation of the events services: where it is served. */
export interface EventsRoute {
  id: string;
  method: 'GET' | 'POST';
  /** Below the server's root; `{name}` matches one path segment. */
  path: string;
  area: EventsArea;
}

/** The path prefix of the platform API (`api_url` is the server's root plus this). */
export const PLATFORM_PREFIX = '/platform';
/** The path of the IP ranges service (`ip_ranges_url` is the server's root plus this). */
export const IP_RANGES_PREFIX = '/ip-ranges';

const P = PLATFORM_PREFIX;

/**
 * Every operation of spec 002 G and H, with the operation IDs of the suite's API table. The
 * monitoring API is at the root (`mon_url`), the IP ranges below /ip-ranges, the platform
 * below /platform. Order matters where two templates fit one path: the first wins.
 */
export const EVENTS_ROUTES: readonly EventsRoute[] = [
  { id: 'serviceDependencies', method: 'GET', path: '/api/v1/service_dependencies', area: 'monitor' },
  { id: 'serviceDependency', method: 'GET', path: '/api/v1/service_dependencies/{service}', area: 'monitor' },
  { id: 'ipRanges', method: 'GET', path: `${IP_RANGES_PREFIX}/`, area: 'monitor' },
  { id: 'listEventsV1', method: 'GET', path: '/api/v1/events', area: 'monitor' },
  { id: 'postEvent', method: 'POST', path: '/api/v1/events', area: 'monitor' },
  { id: 'listEventsV2', method: 'GET', path: '/api/v2/events', area: 'monitor' },
  { id: 'publicEvents', method: 'GET', path: `${P}/events`, area: 'platform' },
  { id: 'networkEvents', method: 'GET', path: `${P}/networks/{owner}/{repo}/events`, area: 'platform' },
  { id: 'orgEvents', method: 'GET', path: `${P}/orgs/{org}/events`, area: 'platform' },
  { id: 'repoEvents', method: 'GET', path: `${P}/repos/{owner}/{repo}/events`, area: 'platform' },
  { id: 'userEvents', method: 'GET', path: `${P}/users/{username}/events`, area: 'platform' },
  { id: 'userOrgEvents', method: 'GET', path: `${P}/users/{username}/events/orgs/{org}`, area: 'platform' },
  { id: 'userPublicEvents', method: 'GET', path: `${P}/users/{username}/events/public`, area: 'platform' },
  { id: 'receivedEvents', method: 'GET', path: `${P}/users/{username}/received_events`, area: 'platform' },
  { id: 'receivedPublicEvents', method: 'GET', path: `${P}/users/{username}/received_events/public`, area: 'platform' },
  { id: 'repoIssueEvents', method: 'GET', path: `${P}/repos/{owner}/{repo}/issues/events`, area: 'platform' },
  { id: 'issueEvent', method: 'GET', path: `${P}/repos/{owner}/{repo}/issues/events/{event_id}`, area: 'platform' },
  { id: 'issueEvents', method: 'GET', path: `${P}/repos/{owner}/{repo}/issues/{issue_number}/events`, area: 'platform' },
];

export type RouteMatch =
  | { ok: true; route: EventsRoute; params: Record<string, string> }
  | { ok: false; reason: 'no-path'; area: EventsArea }
  | { ok: false; reason: 'wrong-method'; area: EventsArea; allowed: string[] };

const segments = (path: string): string[] => path.split('/').filter((s) => s !== '');

function fit(template: string, path: string): Record<string, string> | undefined {
  const t = segments(template);
  const p = segments(path);
  if (t.length !== p.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const ts = t[i] ?? '';
    const ps = p[i] ?? '';
    if (ts.startsWith('{') && ts.endsWith('}')) {
      try {
        params[ts.slice(1, -1)] = decodeURIComponent(ps);
      } catch {
        return undefined;
      }
    } else if (ts !== ps) return undefined;
  }
  return params;
}

/**
 * The operation a method and path name. A trailing slash does not matter (the IP ranges are
 * at `{ip_ranges_url}/`). No operation at the path: `no-path`; only other methods: `wrong-method`.
 */
export function matchRoute(routes: readonly EventsRoute[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = fit(route.path, path);
    if (!params) continue;
    if (route.method === method.toUpperCase()) return { ok: true, route, params };
    allowed.push(route.method);
  }
  const area: EventsArea = path === PLATFORM_PREFIX || path.startsWith(`${PLATFORM_PREFIX}/`) ? 'platform' : 'monitor';
  return allowed.length ? { ok: false, reason: 'wrong-method', area, allowed } : { ok: false, reason: 'no-path', area };
}
