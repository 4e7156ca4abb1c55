/**
 * Scope lists: requests carry them space-delimited, token responses comma-separated
 * (spec 000, B, Endpoints 1 "scope"; B, Resources, access token response "scope").
 */

/** Parses a space-delimited request value (commas tolerated) into a de-duplicated list. */
export function parseScopes(value: string | undefined): string[] {
  if (!value) return [];
  const out: string[] = [];
  for (const s of value.split(/[\s,]+/)) if (s && !out.includes(s)) out.push(s);
  return out;
}

/** The comma-separated form of a token response. */
export function formatScopes(scopes: readonly string[]): string {
  return scopes.join(',');
}

/** Parses a response value (comma-separated; spaces tolerated around items). */
export function parseGrantedScopes(value: string): string[] {
  return parseScopes(value.replace(/,/g, ' '));
}

/** Union keeping first-seen order, so repeated grants give stable scope strings. */
export function unionScopes(a: readonly string[], b: readonly string[]): string[] {
  const out = [...a];
  for (const s of b) if (!out.includes(s)) out.push(s);
  return out;
}

export function isSubset(small: readonly string[], big: readonly string[]): boolean {
  return small.every((s) => big.includes(s));
}

/** Same members regardless of order: the spec fixes no order for granted scopes. */
export function sameScopes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && isSubset(a, b);
}

/** Canonical key of a scope combination (B, Limits: "user/application/scope combination"). */
export function scopeKey(scopes: readonly string[]): string {
  return [...scopes].sort().join(' ');
}
