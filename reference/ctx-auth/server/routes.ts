import { METADATA_PATH, type EndpointPaths } from '../model/metadata.js';
import { DELEGATION_CALLBACK_PATH } from './delegation.js';

/** The endpoints of the reference server, by the IDs planted faults override. */
export type CtxRouteId = 'metadata' | 'authorize' | 'token' | 'register' | 'resource' | 'delegation-callback';
export const CTX_ROUTE_IDS: readonly CtxRouteId[] = ['metadata', 'authorize', 'token', 'register', 'resource', 'delegation-callback'];

export interface CtxRoute {
  id: CtxRouteId;
  /** Methods served; `any`: the handler decides (the resource answers 401 before 405). */
  methods: readonly string[] | 'any';
  path: string;
}

/**
 * The route table for a server's settings: metadata only when published, registration only
 * when offered, the OAuth endpoints at the root (C Endpoints) or under /oauth2/ when
 * `customPaths` moves them (then only the advertised paths serve them); the third party's
 * callback when the server delegates (C Auth 9).
 */
export function ctxRoutes(s: { metadata: boolean; registration: boolean; paths: EndpointPaths; resourcePath: string; delegating?: boolean }): CtxRoute[] {
  const routes: CtxRoute[] = [];
  if (s.metadata) routes.push({ id: 'metadata', methods: ['GET', 'HEAD'], path: METADATA_PATH });
  routes.push({ id: 'authorize', methods: ['GET'], path: s.paths.authorize });
  routes.push({ id: 'token', methods: ['POST'], path: s.paths.token });
  if (s.registration) routes.push({ id: 'register', methods: ['POST'], path: s.paths.register });
  routes.push({ id: 'resource', methods: 'any', path: s.resourcePath });
  if (s.delegating) routes.push({ id: 'delegation-callback', methods: ['GET'], path: DELEGATION_CALLBACK_PATH });
  return routes;
}

export type RouteMatch = { ok: true; route: CtxRoute } | { ok: false; reason: 'no-path' } | { ok: false; reason: 'wrong-method'; allowed: string[] };

const trimmed = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** The endpoint a method and path name (a trailing slash does not matter). */
export function matchRoute(routes: readonly CtxRoute[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    if (trimmed(route.path) !== trimmed(path)) continue;
    if (route.methods === 'any' || route.methods.includes(method.toUpperCase())) return { ok: true, route };
    allowed.push(...route.methods);
  }
  return allowed.length ? { ok: false, reason: 'wrong-method', allowed } : { ok: false, reason: 'no-path' };
}
