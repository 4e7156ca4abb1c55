import { escapeHtml } from './html.js';
import { parameterPairs, withFragment, withQuery } from './target.js';

/** The lead a visitor typed, with the address they came from. */
export type LeadFields = Record<string, string>;

/** How the browser goes on to an autologin target: a redirect, or a page that submits itself. */
export type BrowserStep = { redirect: string } | { html: string };

/**
 * The points where an affiliate integration decides something the spec rules on. The reference
 * integration takes the spec's choice at each; a variant (a planted fault) changes one.
 */
export interface IntegrationBehaviour {
  /** The headers of every platform call (the key server-side, E Authentication 1 and 3). */
  platformHeaders(apiKey: string): Record<string, string>;
  /** A call made without the key before each platform call, when set (never, in the reference). */
  keylessProbe: boolean;
  /** The registration request body (E1: form-encoded). */
  registration(lead: LeadFields): { contentType: string; body: string };
  /** Whether a registration answered with `status` succeeded (Errors 1: 200 or 201). */
  succeeded(status: number): boolean;
  /** The error text shown for a refused registration (Errors 1: messages[0]). */
  errorText(answer: unknown, status: number): string;
  /** Sends the browser to `redirect.url` after a successful registration (E1), or shows a page instead. */
  redirectAfterSignup: boolean;
  /** Extra HTML on the sign-up page (nothing in the reference: no key, no platform call). */
  signupExtras(ctx: { apiKey: string; affiliateUrl: string }): string;
  /** How the browser goes on to an autologin target (E2 client behaviour). */
  browserStep(target: { url: string; parameters: unknown; fragment: string | null; method: string }): BrowserStep;
}

function firstMessage(answer: unknown): string | undefined {
  if (answer === null || typeof answer !== 'object') return undefined;
  const messages = (answer as Record<string, unknown>)['messages'];
  const first: unknown = Array.isArray(messages) ? messages[0] : undefined;
  return typeof first === 'string' && first !== '' ? first : undefined;
}

/** A page that posts `pairs` to `action` as hidden fields as soon as it loads. */
export function selfSubmittingForm(action: string, pairs: ReadonlyArray<[string, string]>): string {
  const inputs = pairs.map(([n, v]) => `<input type="hidden" name="${escapeHtml(n)}" value="${escapeHtml(v)}">`).join('\n');
  return `<form id="autologin" method="post" action="${escapeHtml(action)}">\n${inputs}\n<noscript><button type="submit">Continue</button></noscript>\n</form>\n<script>document.getElementById('autologin').submit();</script>`;
}

export const REFERENCE_BEHAVIOUR: IntegrationBehaviour = {
  platformHeaders: (apiKey) => ({ 'Api-Key': apiKey, accept: 'application/json' }),
  keylessProbe: false,
  registration: (lead) => ({ contentType: 'application/x-www-form-urlencoded', body: new URLSearchParams(lead).toString() }),
  succeeded: (status) => status === 200 || status === 201,
  errorText: (answer, status) => firstMessage(answer) ?? `The registration was refused (HTTP ${status}).`,
  redirectAfterSignup: true,
  signupExtras: () => '',
  browserStep: (t) => {
    const pairs = parameterPairs(t.parameters);
    if (t.method === 'POST') return { html: selfSubmittingForm(withFragment(t.url, t.fragment), pairs) };
    return { redirect: withFragment(withQuery(t.url, pairs), t.fragment) };
  },
};
