import type { PassiveRule, PassiveRuleFinding, PassiveView } from '../../../src/engine/suite-module.js';
import type { RecordedExchange } from '../../../src/targets/har/recording.js';
import { answerHeader, OP } from './recorded.js';

/** A recorded redirect of the user's browser back to the application, and the authorization request it answers. */
export interface AuthorizationRound {
  /** The authorization request (GET {auth_url}/login/oauth/authorize), as recorded. */
  request: RecordedExchange;
  /** The answer that sent the browser back to the application: the request itself, or a later one (the consent page's decision). */
  redirect: RecordedExchange;
  /** Where it sent the browser. */
  location: URL;
}

/**
 * Each recorded redirect to the application (an answer whose Location carries `code` or
 * `error`), with the authorization request it answers: the latest one recorded before it. The
 * page the user approves on is the platform's own (its decision is no endpoint of the spec), so
 * the recording's order links the two, not a parameter.
 */
export function authorizationRounds(view: PassiveView): AuthorizationRound[] {
  const authorizing = new Set((view.byOperation.get(OP.authorize) ?? []).map((x) => x.recorded.index));
  const rounds: AuthorizationRound[] = [];
  let last: RecordedExchange | undefined;
  for (const r of view.recording.exchanges) {
    if (authorizing.has(r.index)) last = r;
    const loc = r.status >= 300 && r.status < 400 ? answerHeader(r, 'location') : undefined;
    if (!last || loc === undefined || !URL.canParse(loc, r.url)) continue;
    const location = new URL(loc, r.url);
    if (!location.searchParams.has('code') && !location.searchParams.has('error')) continue;
    rounds.push({ request: last, redirect: r, location });
    last = undefined;
  }
  return rounds;
}

/**
 * The redirect after the user accepted (B, Endpoints 1): it carries `code`
 * (OAUTH-AUTHZ-REDIRECT-CODE) and the `state` the authorization request sent
 * (OAUTH-AUTHZ-STATE-ECHO). A redirect with `error` is a refusal and is not judged; a masked
 * code (`***`) still shows it is there.
 */
export const authorizeRedirects: PassiveRule = {
  description: 'recorded redirects after the authorization page: the code, and the state the authorization request sent',
  requirements: ['OAUTH-AUTHZ-REDIRECT-CODE', 'OAUTH-AUTHZ-STATE-ECHO'],
  judge(view) {
    // the authorization request, by its entry, when another exchange than it redirected
    const of = (r: AuthorizationRound): string => (r.redirect.index === r.request.index ? '' : ` (entry ${r.request.index})`);
    const accepted = authorizationRounds(view).filter((r) => !r.location.searchParams.has('error'));
    const codeFindings: PassiveRuleFinding[] = accepted.flatMap((r) =>
      r.location.searchParams.get('code') ? [] : [{ message: `the redirect after the user accepted the authorization request${of(r)} carries no code`, expected: 'code=<temporary code>', actual: r.location.toString(), exchange: { recorded: r.redirect } }],
    );
    const stated = accepted.filter((r) => new URL(r.request.url).searchParams.get('state'));
    const stateFindings: PassiveRuleFinding[] = stated.flatMap((r) => {
      const sent = new URL(r.request.url).searchParams.get('state');
      const back = r.location.searchParams.get('state');
      return back === sent ? [] : [{ message: back === null ? `the redirect carries no state, though the authorization request${of(r)} sent one` : `the redirect carries another state than the authorization request${of(r)} sent`, expected: sent, actual: back, exchange: { recorded: r.redirect } }];
    });
    return [
      { requirement: 'OAUTH-AUTHZ-REDIRECT-CODE', observations: accepted.length, findings: codeFindings, ...(accepted.length ? {} : { lacking: 'the recording holds no redirect from the authorization page back to the application' }) },
      { requirement: 'OAUTH-AUTHZ-STATE-ECHO', observations: stated.length, findings: stateFindings, ...(stated.length ? {} : { lacking: 'the recording holds no redirect answering an authorization request that sent state' }) },
    ];
  },
};
