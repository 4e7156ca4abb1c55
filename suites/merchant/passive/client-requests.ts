import type { PassiveRule, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import type { RecordedExchange } from '../../../src/targets/har/recording.js';
import { CLIENT_RULES, PREFIX, misplaced, type SentRequest } from '../checks/client-judges.js';

/** `/content/v2.1` as whole segments, anywhere in a path: what comes before it is the service's root. */
const AT_PREFIX = new RegExp(`${PREFIX.replace(/[.]/g, '\\.')}(?=/|$)`);

/** A recorded URL's origin and path; undefined for one that does not parse. */
function partsOf(url: string): { origin: string; path: string } | undefined {
  try {
    const u = new URL(url);
    return { origin: u.origin, path: u.pathname };
  } catch {
    return undefined;
  }
}

/**
 * What a browser sends of its own accord, not the client's code: a CORS preflight (OPTIONS
 * asking Access-Control-Request-Method) and the site's icon.
 */
function sentByBrowser(r: RecordedExchange, path: string): boolean {
  return (r.method === 'OPTIONS' && r.requestHeaders['access-control-request-method'] !== undefined) || path === '/favicon.ico';
}

/**
 * The service's root on each origin that the recording shows serving the API (an exchange there
 * fits an operation of the table): the shortest path before `/content/v2.1` among the origin's
 * requests ('' when none carries it: the service is at the host's root, as the played service is
 * in a live run). A recording cannot say where `{base_url}` ends, so the root its requests
 * agree on stands for it.
 */
function serviceRoots(view: PassiveView): Map<string, string> {
  const origins = new Set(view.exchanges.flatMap((x) => partsOf(x.recorded.url)?.origin ?? []));
  const roots = new Map<string, string>();
  for (const r of view.recording.exchanges) {
    const p = partsOf(r.url);
    if (!p || !origins.has(p.origin)) continue;
    const at = p.path.search(AT_PREFIX);
    const root = at < 0 ? undefined : p.path.slice(0, at);
    const had = roots.get(p.origin);
    if (root !== undefined && (had === undefined || root.length < had.length)) roots.set(p.origin, root);
  }
  for (const o of origins) if (!roots.has(o)) roots.set(o, '');
  return roots;
}

/** A recorded request as the client judges read one, the path taken below its service's root. */
function sentRequest(r: RecordedExchange, path: string, root: string): SentRequest & { recorded: RecordedExchange } {
  // a path outside the root is judged whole: it is not below the prefix there
  const below = root === '' || path.startsWith(`${root}/`) ? path.slice(root.length) : path;
  return { method: r.method, path: below || '/', shown: path, root, body: r.requestBody ?? '', recorded: r };
}

/** The client rules' verdicts on every request the recording holds to the service, each bad one named on its entry. */
function judgeClient(view: PassiveView): PassiveVerdict[] {
  const roots = serviceRoots(view);
  const requests = view.recording.exchanges.flatMap((r) => {
    const p = partsOf(r.url);
    const root = p ? roots.get(p.origin) : undefined;
    return p && root !== undefined && !sentByBrowser(r, p.path) ? [sentRequest(r, p.path, root)] : [];
  });
  return Object.entries(CLIENT_RULES).map(([requirement, { kind }]) => {
    if (!requests.length) return { requirement, observations: 0, findings: [], lacking: 'no recorded request fits an operation of the API table, so none is known to be sent to the service' };
    const findings = misplaced(view.table, requests, kind).map((b) => ({ message: b.why, exchange: { recorded: b.request.recorded } }));
    return { requirement, observations: requests.length, findings };
  });
}

/**
 * The client side of a recording (MERCHANT-CLIENT-*): the rules the client cases judge the
 * requests of a launched client by (checks/client-judges.ts), applied to every recorded request
 * sent to the service — below /content/v2.1, a path of the endpoint tables, with that path's
 * method, custombatch calls without a merchant id. The service is each origin where an exchange
 * fits an operation; requests to other hosts, CORS preflights and the site's icon are not the
 * client's and are left out.
 */
export const clientRequests: PassiveRule = {
  description: "the client's recorded requests: below /content/v2.1, a path of the endpoint tables, with its method, custombatch calls without a merchant id",
  requirements: Object.keys(CLIENT_RULES),
  judge: judgeClient,
};
