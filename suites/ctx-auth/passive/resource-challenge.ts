import type { PassiveRule, PassiveRuleFinding, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import { answerHeader, exchangesOfKind, sentHeader, verdict } from './recorded.js';

/** A challenge of the Bearer scheme among those a WWW-Authenticate value lists (as the live cases match it). */
const BEARER_CHALLENGE = /(^|,)\s*bearer(\s|,|$)/i;

function judgeResource(view: PassiveView): PassiveVerdict[] {
  const resource = exchangesOfKind(view, 'resource');
  const bare = resource.filter((x) => sentHeader(x, 'authorization') === undefined);
  const missing: PassiveRuleFinding[] = bare.filter((x) => x.recorded.status !== 401).map((x) => ({ message: `a resource request without Authorization was answered ${x.recorded.status}, not 401`, expected: 401, actual: x.recorded.status, exchange: x }));
  const refused = resource.filter((x) => x.recorded.status === 401);
  const challenge: PassiveRuleFinding[] = refused.flatMap((x) => {
    const value = answerHeader(x, 'www-authenticate');
    if (value !== undefined && BEARER_CHALLENGE.test(value)) return [];
    return [{ message: value === undefined ? 'the 401 of the resource carries no WWW-Authenticate' : `the 401 of the resource carries WWW-Authenticate: ${value}, without the Bearer scheme`, expected: 'WWW-Authenticate: Bearer ...', actual: value ?? null, exchange: x }];
  });
  return [
    verdict('CTX-SRV-401-MISSING', bare.length, missing, 'the recording holds no resource request without Authorization'),
    verdict('CTX-SRV-WWW-AUTHENTICATE', refused.length, challenge, 'the recording holds no 401 of the resource'),
  ];
}

/**
 * The resource's refusals (C, Authentication 5; RFC 6750 section 3): a recorded resource request
 * without Authorization gets 401, and every recorded 401 of the resource carries a Bearer
 * challenge in WWW-Authenticate. Whether a token sent was valid is not shown (a recording masks
 * tokens, and their expiry is the server's), so 401-INVALID and 401-EXPIRED are not judged here.
 */
export const resourceChallenge: PassiveRule = {
  description: 'recorded resource requests without Authorization are answered 401, and every 401 of the resource carries WWW-Authenticate with the Bearer scheme',
  requirements: ['CTX-SRV-401-MISSING', 'CTX-SRV-WWW-AUTHENTICATE'],
  judge: judgeResource,
};
