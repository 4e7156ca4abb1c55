import { createHash } from 'node:crypto';
import type { Advertiser } from './catalog.js';
import type { AutologinShape, Lead } from './types.js';

/**
 * Every shape an autologin target takes (E2): method GET or POST, parameters as an array of
 * name-value pairs or as an object, a fragment or none. Leads take them in turn, so the seed
 * holds every shape and an integration is judged on all of them.
 */
export const AUTOLOGIN_SHAPES: readonly AutologinShape[] = (['POST', 'GET'] as const).flatMap((method) =>
  (['array', 'object'] as const).flatMap((parameters) => [true, false].map((fragment) => ({ method, parameters, fragment }))),
);

/** A shape's name: `post-array-fragment`, `get-object-no-fragment`, ... */
export function shapeName(s: AutologinShape): string {
  return `${s.method.toLowerCase()}-${s.parameters}-${s.fragment ? 'fragment' : 'no-fragment'}`;
}

/** The shape of the n-th lead (counting from 0). */
export function shapeOf(n: number): AutologinShape {
  const shape = AUTOLOGIN_SHAPES[n % AUTOLOGIN_SHAPES.length];
  return shape ?? { method: 'POST', parameters: 'array', fragment: true };
}

/** E2 `details`. */
export interface AutologinTarget {
  url: string;
  parameters: Array<{ name: string; value: string }> | Record<string, string>;
  fragment: string | null;
  method: 'GET' | 'POST';
}

const slug = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** A token only this lead's target carries, derived from the seed so it is stable per run. */
function tokenOf(lead: Lead, seed: number): string {
  return createHash('sha256').update(`${seed}:${lead.id}`).digest('hex').slice(0, 24);
}

/**
 * The autologin target of a lead: the advertiser's login page below `landingUrl`, with a
 * one-lead token, the lead ID and a language. Names and values include characters that need
 * encoding (a space, `&`, `=`) so an integration that does not encode them is caught.
 */
export function autologinTarget(lead: Lead, advertiser: Advertiser | undefined, landingUrl: string, seed: number): AutologinTarget {
  const pairs: Array<[string, string]> = [
    ['token', tokenOf(lead, seed)],
    ['lead', lead.id],
    ['lang', lead.countryCode === 'DE' ? 'de' : 'en'],
    ['welcome', 'Hello & welcome=yes'],
  ];
  return {
    url: `${landingUrl.replace(/\/+$/, '')}/login/${slug(advertiser?.name ?? 'advertiser')}`,
    parameters: lead.shape.parameters === 'array' ? pairs.map(([name, value]) => ({ name, value })) : Object.fromEntries(pairs),
    fragment: lead.shape.fragment ? `dashboard-${lead.id.slice(0, 4).toLowerCase()}` : null,
    method: lead.shape.method,
  };
}

/** The target's parameters as name-value pairs, whichever way they are given. */
export function targetPairs(t: AutologinTarget): Array<[string, string]> {
  return Array.isArray(t.parameters) ? t.parameters.map((p) => [p.name, p.value]) : Object.entries(t.parameters);
}

/**
 * The registration answer's `redirect.url` (E1: "already contains the autologin redirect
 * URL"): the target as one URL a browser can be sent to, its parameters in the query and its
 * fragment appended when there is one.
 */
export function redirectUrlOf(t: AutologinTarget): string {
  const url = new URL(t.url);
  for (const [name, value] of targetPairs(t)) url.searchParams.append(name, value);
  if (t.fragment !== null) url.hash = t.fragment;
  return url.toString();
}
