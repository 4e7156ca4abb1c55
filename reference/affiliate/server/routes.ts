/** One operation of the affiliate API: where it is served. */
export interface AffiliateRoute {
  id: string;
  method: 'GET' | 'POST';
  /** Below `{affiliate_url}`. */
  path: string;
}

/**
 * The operations of spec 001 E1-E7 with the operation IDs of the suite's API table. The spec
 * gives only the autologin path (E2); the others are specgate's documented default layout.
 */
export const AFFILIATE_ROUTES: readonly AffiliateRoute[] = [
  { id: 'registerLead', method: 'POST', path: '/api/v2/leads' },
  { id: 'autologin', method: 'GET', path: '/api/v2/brokers/login/details' },
  { id: 'offers', method: 'GET', path: '/api/v2/offers' },
  { id: 'leads', method: 'GET', path: '/api/v2/leads' },
  { id: 'conversions', method: 'GET', path: '/api/v2/conversions' },
  { id: 'income', method: 'GET', path: '/api/v2/income' },
  { id: 'postbacks', method: 'GET', path: '/api/v2/postbacks' },
];

/** Where the server's own landing page is (the default `landingUrl` is `{affiliate_url}` plus this). */
export const LANDING_PREFIX = '/landing';

export type RouteMatch = { ok: true; route: AffiliateRoute } | { ok: false; reason: 'no-path' } | { ok: false; reason: 'wrong-method'; allowed: string[] };

const trimmed = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** The operation a method and path name (a trailing slash does not matter). */
export function matchRoute(routes: readonly AffiliateRoute[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    if (trimmed(route.path) !== trimmed(path)) continue;
    if (route.method === method.toUpperCase()) return { ok: true, route };
    allowed.push(route.method);
  }
  return allowed.length ? { ok: false, reason: 'wrong-method', allowed } : { ok: false, reason: 'no-path' };
}

/** Whether a path is the landing page or below it. */
export function isLanding(path: string): boolean {
  return path === LANDING_PREFIX || path.startsWith(`${LANDING_PREFIX}/`);
}
