/**
 * Redirect URL rules, spec 000, B, Endpoints, "Redirect URLs":
 * 1. an omitted redirect_uri means the configured callback URL;
 * 2. a given one must match the callback's host (sub-domains of it allowed) and port exactly,
 *    and its path must be the callback path or a sub-path of it;
 * 3. with a loopback literal (`127.0.0.1` or `::1`) the port need not match.
 *
 * URLs are compared after WHATWG parsing, which is what a browser follows: host case is folded,
 * `.`/`..` segments (also as `%2e`) are resolved, default ports are dropped. Comparing raw text
 * instead would accept `/callback/../elsewhere`, whose browser destination is `/elsewhere`.
 */

/** Requirement IDs the rules map to (suites/oauth/requirements.yaml). */
export const REDIRECT_RULES = {
  host: 'OAUTH-REDIRECT-HOST',
  port: 'OAUTH-REDIRECT-PORT',
  path: 'OAUTH-REDIRECT-PATH',
  loopback: 'OAUTH-REDIRECT-LOOPBACK-PORT',
  default: 'OAUTH-REDIRECT-DEFAULT',
} as const;

export type RedirectRule = (typeof REDIRECT_RULES)[keyof typeof REDIRECT_RULES];

export interface RedirectVerdict {
  accepted: boolean;
  /** The URI the platform redirects to when accepted. */
  effective?: string;
  /** The requirement that decides this verdict. */
  rule: RedirectRule;
  reason: string;
}

/** Loopback literals of rule 3 (`localhost` is deliberately not one). */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', '[::1]'];

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

function parse(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function effectivePort(u: URL): string {
  return u.port || DEFAULT_PORTS[u.protocol] || '';
}

function isIpLiteral(host: string): boolean {
  return host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host);
}

/** Host equal to the callback's, or a sub-domain of it (never for IP literals). */
export function hostMatches(callbackHost: string, candidateHost: string): 'same' | 'subdomain' | false {
  if (candidateHost === callbackHost) return 'same';
  if (isIpLiteral(callbackHost) || isIpLiteral(candidateHost)) return false;
  return candidateHost.endsWith(`.${callbackHost}`) ? 'subdomain' : false;
}

/** Path equal to the callback path or below it, at a segment boundary. */
export function pathMatches(callbackPath: string, candidatePath: string): 'same' | 'deeper' | false {
  if (candidatePath === callbackPath) return 'same';
  const base = callbackPath.endsWith('/') ? callbackPath : `${callbackPath}/`;
  return candidatePath.startsWith(base) ? 'deeper' : false;
}

/**
 * Decides whether `candidate` may be used as redirect_uri for an application whose callback
 * URL is `callback`. `candidate` undefined means the parameter was omitted (rule 1).
 */
export function matchRedirect(callback: string, candidate: string | undefined): RedirectVerdict {
  if (candidate === undefined) {
    return { accepted: true, effective: callback, rule: REDIRECT_RULES.default, reason: 'omitted: the callback URL is used' };
  }
  const c = parse(callback);
  const r = parse(candidate);
  if (!c) return { accepted: false, rule: REDIRECT_RULES.host, reason: 'the registered callback URL does not parse' };
  if (!r) return { accepted: false, rule: REDIRECT_RULES.host, reason: 'redirect_uri is not an absolute URL' };
  if (r.protocol !== c.protocol) return { accepted: false, rule: REDIRECT_RULES.host, reason: `scheme ${r.protocol} differs from ${c.protocol}` };
  if (r.username || r.password) return { accepted: false, rule: REDIRECT_RULES.host, reason: 'redirect_uri carries user information' };
  const host = hostMatches(c.hostname, r.hostname);
  if (!host) return { accepted: false, rule: REDIRECT_RULES.host, reason: `host ${r.hostname} is neither ${c.hostname} nor a sub-domain of it` };
  const loopback = LOOPBACK_HOSTS.includes(r.hostname);
  if (!loopback && effectivePort(r) !== effectivePort(c)) {
    return { accepted: false, rule: REDIRECT_RULES.port, reason: `port ${effectivePort(r)} differs from ${effectivePort(c)}` };
  }
  const path = pathMatches(c.pathname, r.pathname);
  if (!path) return { accepted: false, rule: REDIRECT_RULES.path, reason: `path ${r.pathname} is not ${c.pathname} or below it` };
  const rule =
    loopback && effectivePort(r) !== effectivePort(c)
      ? REDIRECT_RULES.loopback
      : host === 'subdomain'
        ? REDIRECT_RULES.host
        : REDIRECT_RULES.path;
  return { accepted: true, effective: candidate, rule, reason: `${host} host, ${path} path${loopback ? ', loopback literal' : ''}` };
}
