import type { PassiveRule, PassiveRuleFinding, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import { answerHeader, BEARER_CHALLENGE, exchangesOfKind, sentHeader, verdict } from './recorded.js';

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
    verdict('CTX-SRV-401-MISSING', bare.length, missing, 'the recording holds no request without Authorization to a path it shows as a protected resource (one answered 401 with a Bearer challenge, named by protected-resource metadata, or sent bearer tokens the recorded authorization server issues)'),
    verdict('CTX-SRV-WWW-AUTHENTICATE', refused.length, challenge, 'the recording holds no 401 of the resource'),
  ];
}

/**
 * The resource's refusals (C, Authentication 5; RFC 6750 section 3): a recorded resource request
 * without Authorization gets 401, and every recorded 401 of the resource carries a Bearer
 * challenge in WWW-Authenticate. A resource request is one to a path the recording shows as a
 * protected resource (recorded.ts resourcePaths): a recording of other traffic (another suite's
 * API, a favicon, the client's callback) holds none, and is judged on nothing here.
 * Whether a token sent was valid is not shown (a recording masks tokens, and their expiry is the
 * server's), so 401-INVALID and 401-EXPIRED are not judged here.
 */
export const resourceChallenge: PassiveRule = {
  description: 'recorded resource requests without Authorization are answered 401, and every 401 of the resource carries WWW-Authenticate with the Bearer scheme',
  requirements: ['CTX-SRV-401-MISSING', 'CTX-SRV-WWW-AUTHENTICATE'],
  judge: judgeResource,
};
