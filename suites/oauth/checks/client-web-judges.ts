import { judgeBearer, judgeRevalidateUser } from './client-api-judges.js';
import { authorization, isTokenRequest, toExchange } from './client-log.js';
import { PASS, fail, unjudged, type Judge, type Verdict } from '../../../src/engine/checks/contract.js';
import { judgeHttpMethod } from './client-method-judges.js';
import { PKCE_JUDGES } from './client-pkce-judges.js';
import { judgeWebScope } from './client-scope-judges.js';
import type { WebRun } from './client-web-run.js';

/**
 * Judges of one web-flow run (spec 000, B, Endpoints 1-2, Authentication 1, Redirect URLs),
 * by requirement ID. Each looks only at what its requirement names.
 */

function authorizeParam(run: WebRun, name: string): string | undefined {
  return run.authorizeUrl?.searchParams.get(name) ?? undefined;
}

function exchanges(run: WebRun): WebRun['requests'] {
  return run.requests.filter(isTokenRequest);
}

function noAuthorizeUrl(run: WebRun): Verdict {
  return unjudged(run.problem ?? 'the client printed no authorization URL');
}

function noExchange(run: WebRun): Verdict {
  return unjudged(run.problem ?? `the client did not exchange the code (${run.stopped ? 'it was still running' : 'it ended'} without a POST to /login/oauth/access_token)`);
}

const authorizeExchange = (run: WebRun) => ({ kind: 'note' as const, summary: 'authorization URL printed by the client', request: run.authorizeUrl?.toString() });

/** OAUTH-CLIENT-AUTHZ-CLIENT-ID: the authorization URL names the registered application as `client_id`. */
export function judgeAuthorizeClientId(run: WebRun): Verdict {
  if (!run.authorizeUrl) return noAuthorizeUrl(run);
  const sent = authorizeParam(run, 'client_id');
  if (sent !== run.env.clientId) {
    return fail(sent === undefined ? 'the authorization request carries no client_id' : 'the authorization request names another client_id than the registered application', {
      expected: { client_id: run.env.clientId },
      actual: { client_id: sent ?? null },
      exchange: authorizeExchange(run),
    });
  }
  return PASS;
}

/** OAUTH-CLIENT-EXCHANGE-CODE: every code exchange sends the code the delivered redirect carried. */
export function judgeExchangeCode(run: WebRun): Verdict {
  const received = run.redirect?.searchParams.get('code');
  if (!run.delivered || !received) return unjudged(run.problem ?? 'no redirect with a code was delivered to the client');
  const ex = exchanges(run);
  if (!ex.length) return noExchange(run);
  for (const e of ex) {
    if (e.params['code'] !== received) {
      return fail(e.params['code'] === undefined ? 'the code exchange sends no code' : 'the code exchange sends another code than the one the redirect delivered', {
        expected: { code: received },
        actual: { code: e.params['code'] ?? null },
        exchange: toExchange(e, run.t0),
      });
    }
  }
  return PASS;
}

export function judgeRedirectUri(run: WebRun): Verdict {
  if (!run.authorizeUrl) return noAuthorizeUrl(run);
  const sent = authorizeParam(run, 'redirect_uri');
  if (!sent) return fail('the authorization request carries no redirect_uri', { expected: 'redirect_uri=<the loopback URI the client listens on>', actual: null, exchange: authorizeExchange(run) });
  const ex = exchanges(run);
  if (!ex.length) return noExchange(run);
  for (const e of ex) {
    if (e.params['redirect_uri'] !== sent) {
      return fail(e.params['redirect_uri'] === undefined ? 'the code exchange carries no redirect_uri' : 'the code exchange names another redirect_uri than the authorization request', {
        expected: sent,
        actual: e.params['redirect_uri'] ?? null,
        exchange: toExchange(e, run.t0),
      });
    }
  }
  return PASS;
}

export function judgeLoopbackLiteral(run: WebRun): Verdict {
  if (!run.authorizeUrl) return noAuthorizeUrl(run);
  const sent = authorizeParam(run, 'redirect_uri');
  // Without redirect_uri the registered callback URL is used: the client chose no host, so
  // there is nothing of its own to judge (never a pass on nothing)
  if (!sent || !URL.canParse(sent)) return unjudged(sent ? `the authorization request's redirect_uri ${JSON.stringify(sent)} is not a URL` : 'the authorization request carries no redirect_uri, so the client chose no host for it (the registered callback URL is used)');
  const host = new URL(sent).hostname;
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return fail(`the redirect URI uses ${host} instead of the loopback literal 127.0.0.1 or ::1 (a platform following the redirect rules also holds localhost to the callback's port)`, {
      expected: 'http://127.0.0.1:<port>/... or http://[::1]:<port>/...',
      actual: sent,
      exchange: authorizeExchange(run),
    });
  }
  return PASS;
}

export function judgeClientSecret(run: WebRun): Verdict {
  const ex = exchanges(run);
  if (!ex.length) return noExchange(run);
  for (const e of ex) {
    if (e.params['client_id'] !== run.env.clientId || e.params['client_secret'] !== run.env.clientSecret) {
      const basic = authorization(e)?.scheme.toLowerCase() === 'basic';
      return fail(`the code exchange does not identify the application with the client_id and client_secret parameters${basic ? ' (it sent HTTP Basic authentication instead, which the spec does not name)' : ''}`, {
        expected: { client_id: run.env.clientId, client_secret: '<the registered secret>' },
        actual: { client_id: e.params['client_id'] ?? null, client_secret: e.params['client_secret'] === undefined ? null : e.params['client_secret'] === run.env.clientSecret ? '<the registered secret>' : '<another value>' },
        exchange: toExchange(e, run.t0),
      });
    }
  }
  return PASS;
}

/** Judges of a run that went through the whole flow, by requirement. */
export const WEB_JUDGES: Readonly<Record<string, Judge<WebRun>>> = {
  'OAUTH-CLIENT-AUTHZ-CLIENT-ID': judgeAuthorizeClientId,
  'OAUTH-CLIENT-EXCHANGE-CODE': judgeExchangeCode,
  'OAUTH-CLIENT-HTTP-METHOD': judgeHttpMethod,
  'OAUTH-CLIENT-REDIRECT-URI': judgeRedirectUri,
  'OAUTH-CLIENT-LOOPBACK-LITERAL': judgeLoopbackLiteral,
  ...PKCE_JUDGES,
  'OAUTH-CLIENT-SECRET': judgeClientSecret,
  'OAUTH-CLIENT-REVALIDATE-USER': judgeRevalidateUser,
  'OAUTH-CLIENT-BEARER': judgeBearer,
  'OAUTH-CLIENT-SCOPE-SPACES': judgeWebScope,
};
