import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { loopbackHost, optionalText, parseUrl, stepVar } from './support.js';

export const HTTPS = 'CTX-SRV-HTTPS';

/** One authorization URL and what it is. */
export interface NamedUrl {
  name: string;
  url: string;
}

/** The verdict on the URLs: what breaks the rule, and what passed only by the loopback exemption. */
export interface HttpsVerdict {
  failures: { name: string; url: string; why: string }[];
  exempted: NamedUrl[];
}

/**
 * The authorization URLs a client would use: with metadata the issuer and every advertised
 * endpoint (the registration endpoint when offered); without, the fallback base.
 */
export function authorizationUrls(ctx: CheckContext): NamedUrl[] {
  const out: NamedUrl[] = [];
  const add = (name: string, value: unknown): void => {
    if (typeof value === 'string' && value !== '') out.push({ name, url: value });
  };
  if (ctx.vars['has_metadata'] === true) {
    add('issuer', ctx.vars['issuer']);
    add('authorization_endpoint', ctx.vars['authorization_endpoint']);
    add('token_endpoint', ctx.vars['token_endpoint']);
    add('registration_endpoint', ctx.vars['registration_endpoint']);
  } else {
    add('authorization base URL (fallback endpoints)', stepVar(ctx, 'auth_base', 'ctx-auth.discover'));
  }
  return out;
}

/**
 * Judges each URL: https passes; http on a loopback host passes only under the exemption
 * (`https_exempt_loopback`, true unless the profile sets it false), so that a server run on a
 * developer's machine can be judged; anything else fails.
 */
export function judgeHttps(urls: readonly NamedUrl[], exemptLoopback: boolean): HttpsVerdict {
  const verdict: HttpsVerdict = { failures: [], exempted: [] };
  for (const u of urls) {
    const parsed = parseUrl(u.url);
    if (!parsed) verdict.failures.push({ ...u, why: 'is not an absolute URL' });
    else if (parsed.protocol === 'https:') continue;
    else if (parsed.protocol === 'http:' && loopbackHost(parsed.hostname)) {
      if (exemptLoopback) verdict.exempted.push(u);
      else verdict.failures.push({ ...u, why: 'is http on a loopback host, and vars.https_exempt_loopback is false' });
    } else verdict.failures.push({ ...u, why: `is served over ${parsed.protocol.replace(/:$/, '')}, not https` });
  }
  return verdict;
}

/** `https_exempt_loopback`: true unless set false (or "false"). */
export function exemptsLoopback(ctx: CheckContext): boolean {
  const v = ctx.vars['https_exempt_loopback'];
  return !(v === false || optionalText(ctx, 'https_exempt_loopback')?.toLowerCase() === 'false');
}

/**
 * `ctx-auth.https`: every authorization endpoint is served over HTTPS (spec 000, C,
 * Authentication 8). Runs after `ctx-auth.discover`. A loopback http URL passes only under the
 * exemption, and the case then records a note saying which URLs were exempted.
 */
export const httpsCheck = defineCheck<Record<string, never>>({
  description: 'judges that every authorization endpoint URL (issuer and advertised endpoints, or the fallback base) is https, loopback http only under https_exempt_loopback',
  args: { type: 'object', additionalProperties: false, properties: {} },
  judges: [HTTPS],
  async run(ctx) {
    const verdict = judgeHttps(authorizationUrls(ctx), exemptsLoopback(ctx));
    for (const f of verdict.failures)
      ctx.fail({ requirement: HTTPS, message: `the ${f.name} ${f.url} ${f.why}: all authorization endpoints are served over HTTPS (spec 000, C, Authentication 8)`, expected: 'an https URL', actual: f.url });
    if (verdict.exempted.length)
      ctx.exchange({ kind: 'note', summary: `${HTTPS}: exempted as loopback http (vars.https_exempt_loopback is true): ${verdict.exempted.map((u) => `${u.name} ${u.url}`).join(', ')}` });
  },
});
