import type { PassiveRule, PassiveRuleFinding } from '../../../src/engine/suite-module.js';
import { exchangesOf, masked, OP, verdict } from './recorded.js';

/** A bearer token, or a credential a recorder masked whole (`***`: its scheme is masked with it). */
const presents = (h: string | undefined): boolean => h !== undefined && (masked(h.trim()) || /^\s*bearer\s+\S/i.test(h));

/**
 * GET {api_url}/user (B, Endpoints 3, Authentication 3): a request with a bearer token answered
 * 2xx returns the user, a JSON object (whose fields the spec does not show; whether it is the
 * token's user needs the profile's user_login, which a recording does not give)
 * (OAUTH-API-USER-BEARER); a request without Authorization is refused with an error status
 * (OAUTH-API-USER-TOKEN-REQUIRED, STRICTER). A bearer token a recorder masked is a token all the
 * same (a recorder masks the whole header, scheme too); which token it was, and so whether a refusal of it is right, the recording cannot say.
 */
export const apiUser: PassiveRule = {
  description: 'recorded GET {api_url}/user: a user object for a bearer token, an error status without a token',
  requirements: ['OAUTH-API-USER-BEARER', 'OAUTH-API-USER-TOKEN-REQUIRED'],
  judge(view) {
    const calls = exchangesOf(view, OP.user);
    const bearer = calls.filter((x) => presents(x.recorded.requestHeaders['authorization']) && x.recorded.status >= 200 && x.recorded.status < 300 && !x.recorded.responseCut);
    const bearerFindings: PassiveRuleFinding[] = bearer.flatMap((x) => {
      const body = x.recorded.parseError === undefined ? x.recorded.responseBody : undefined;
      return body && typeof body === 'object' && !Array.isArray(body) ? [] : [{ message: 'GET {api_url}/user with a bearer token answered 2xx without a user (no JSON object)', expected: 'the user, a JSON object', actual: x.recorded.responseText?.slice(0, 300) ?? null, exchange: x }];
    });
    const bare = calls.filter((x) => x.recorded.requestHeaders['authorization'] === undefined);
    const bareFindings: PassiveRuleFinding[] = bare.flatMap((x) => (x.recorded.status >= 400 ? [] : [{ message: `GET {api_url}/user without Authorization was answered ${x.recorded.status}, not refused`, expected: 'an error status (4xx)', actual: x.recorded.status, exchange: x }]));
    return [
      verdict('OAUTH-API-USER-BEARER', bearer.length, bearerFindings, 'the recording holds no GET {api_url}/user with a bearer token answered 2xx'),
      verdict('OAUTH-API-USER-TOKEN-REQUIRED', bare.length, bareFindings, 'the recording holds no GET {api_url}/user without Authorization'),
    ];
  },
};
