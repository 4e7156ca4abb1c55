/**
 * Redirect URI rules (C Auth 8: "redirect URIs must be localhost URLs or HTTPS URLs"; RFC 6749
 * §3.1.2: absolute, without a fragment). `http` is accepted only for a loopback host; any host
 * may be used with `https`. Registered URIs are compared as exact strings (OAuth 2.1 §2.3.1).
 */

/** Hosts (as WHATWG URL parsing gives them) that name this machine. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.includes(hostname.toLowerCase());
}

/** Why `uri` may not be a redirect URI, or undefined when it may. */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${JSON.stringify(uri)} is not an absolute URI`;
  }
  if (uri.includes('#')) return `${uri} has a fragment; redirect URIs must not`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return isLoopbackHost(url.hostname) ? undefined : `${uri} uses http on a host that is not localhost; use https or a localhost URL`;
  return `${uri} uses the scheme ${url.protocol.replace(/:$/, '')}; redirect URIs must be localhost or https URLs`;
}
