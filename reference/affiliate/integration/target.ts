/**
 * E2 `details`, as an integration reads it: `parameters` is an array of name-value pairs or an
 * object of them (E, Affiliate resources), `fragment` a string or null.
 */
export interface AutologinDetails {
  url: string;
  parameters: unknown;
  fragment: string | null;
  method: string;
}

function field(o: unknown, key: string): unknown {
  return o !== null && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>)[key] : undefined;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

/** The autologin details of an E2 answer body, or undefined when they are not there. */
export function autologinDetails(body: unknown): AutologinDetails | undefined {
  const d = field(body, 'details');
  const url = field(d, 'url');
  const method = field(d, 'method');
  const fragment = field(d, 'fragment');
  if (typeof url !== 'string' || typeof method !== 'string') return undefined;
  return { url, parameters: field(d, 'parameters'), fragment: typeof fragment === 'string' ? fragment : null, method: method.toUpperCase() };
}

/** The parameters as name-value pairs, whichever of the two shapes they come in. */
export function parameterPairs(parameters: unknown): Array<[string, string]> {
  if (Array.isArray(parameters)) return parameters.flatMap((p) => (typeof field(p, 'name') === 'string' ? [[text(field(p, 'name')), text(field(p, 'value'))] as [string, string]] : []));
  if (parameters !== null && typeof parameters === 'object') return Object.entries(parameters).map(([k, v]) => [k, text(v)]);
  return [];
}

/** `url` with `#fragment` appended when the fragment is a string (E2), nothing appended when null. */
export function withFragment(url: string, fragment: string | null): string {
  return fragment === null ? url : `${url.replace(/#.*$/, '')}#${fragment}`;
}

/** `url` with the pairs appended to its query string (kept in order, encoded). */
export function withQuery(url: string, pairs: ReadonlyArray<[string, string]>): string {
  const u = new URL(url);
  for (const [name, value] of pairs) u.searchParams.append(name, value);
  return u.toString();
}
