/**
 * The reference server's scopes. Spec 000 part C leaves scope values to the implementation; the
 * reference offers `ctx` (what the resource needs) and `profile` (grantable, but not enough for
 * the resource, so a 403 can be shown: C Status codes, RFC 6750 §3.1 insufficient_scope).
 */
export const RESOURCE_SCOPE = 'ctx';
export const PROFILE_SCOPE = 'profile';
export const SUPPORTED_SCOPES: readonly string[] = [RESOURCE_SCOPE, PROFILE_SCOPE];
/** Granted when a request names no scope (OAuth 2.1 §1.4.1 lets the server choose a default). */
export const DEFAULT_SCOPES: readonly string[] = [RESOURCE_SCOPE];

/** A `scope` parameter as a list (space-delimited, duplicates dropped); undefined when absent or blank. */
export function parseScope(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(' ').filter((s) => s !== '');
  return parts.length ? [...new Set(parts)] : undefined;
}

/** The scopes of `scopes` the server does not know. */
export function unknownScopes(scopes: readonly string[]): string[] {
  return scopes.filter((s) => !SUPPORTED_SCOPES.includes(s));
}

export function formatScope(scopes: readonly string[]): string {
  return scopes.join(' ');
}

/** Whether every scope of `part` is in `whole`. */
export function isSubset(part: readonly string[], whole: readonly string[]): boolean {
  return part.every((s) => whole.includes(s));
}
