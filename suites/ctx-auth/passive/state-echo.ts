import type { PassiveRule, PassiveRuleFinding, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import { answerHeader, exchangesOfKind, formOf, queryOf, verdict } from './recorded.js';

/**
 * The state of authorization redirects (C, Endpoints 5; OAuth 2.1 section 4.1.2): every recorded
 * authorization request that sent `state` and was redirected back to its own redirect_uri (with a
 * code or an error) gets that state back exactly. A redirect elsewhere (a sign-in page) is not the
 * answer to the client yet, and is not judged.
 */
function judgeState(view: PassiveView): PassiveVerdict[] {
  let judged = 0;
  const findings: PassiveRuleFinding[] = exchangesOfKind(view, 'authorize').flatMap((x): PassiveRuleFinding[] => {
    const params = x.recorded.method === 'POST' ? formOf(x) : queryOf(x);
    const state = params.get('state');
    const redirectUri = params.get('redirect_uri');
    const location = answerHeader(x, 'location');
    if (state === null || redirectUri === null || !location || x.recorded.status < 300 || x.recorded.status > 399 || !URL.canParse(location) || !URL.canParse(redirectUri)) return [];
    const back = new URL(location);
    const to = new URL(redirectUri);
    if (back.origin !== to.origin || back.pathname !== to.pathname) return [];
    judged++;
    const returned = back.searchParams.get('state');
    return returned === state ? [] : [{ message: `the redirect to ${to.origin}${to.pathname} carries ${returned === null ? 'no state' : `state ${JSON.stringify(returned)}`}, not the ${JSON.stringify(state)} sent`, expected: state, actual: returned, exchange: x }];
  });
  return [verdict('CTX-SRV-STATE-ECHO', judged, findings, 'the recording holds no authorization request with state redirected back to its redirect_uri')];
}

export const stateEcho: PassiveRule = {
  description: 'recorded authorization requests with state that are redirected back to their redirect_uri get the same state',
  requirements: ['CTX-SRV-STATE-ECHO'],
  judge: judgeState,
};
