import type { PassiveRule, PassiveRuleFinding, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import { answerHeader, answerJson, answerType, exchangesOfKind, field, isObject, verdict } from './recorded.js';

/** OAuth 2.1 section 3.2.4: the error codes of a token endpoint. */
const TOKEN_ERRORS = ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'];

function successProblems(status: number, type: string, body: unknown): string[] {
  const out: string[] = [];
  if (status !== 200) out.push(`its status is ${status}, not 200`);
  if (!type.startsWith('application/json')) out.push(`its content type is ${type || 'missing'}, not application/json`);
  if (!isObject(body)) return [...out, 'its body is not a JSON object'];
  const access = body['access_token'];
  if (typeof access !== 'string' || access === '') out.push('it has no access_token');
  const tokenType = body['token_type'];
  if (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer') out.push(tokenType === undefined ? 'it has no token_type' : `its token_type is ${JSON.stringify(tokenType)}, not Bearer`);
  if (body['expires_in'] !== undefined && typeof body['expires_in'] !== 'number') out.push('its expires_in is not a number');
  return out;
}

function judgeTokens(view: PassiveView): PassiveVerdict[] {
  const token = exchangesOfKind(view, 'token');
  const succeeded = token.filter((x) => x.recorded.status >= 200 && x.recorded.status < 300);
  const response: PassiveRuleFinding[] = succeeded.flatMap((x) => {
    const problems = successProblems(x.recorded.status, answerType(x), answerJson(x));
    return problems.length ? [{ message: `the token answer: ${problems.join('; ')}`, exchange: x }] : [];
  });
  const holding = token.filter((x) => typeof field(answerJson(x), 'access_token') === 'string' || typeof field(answerJson(x), 'refresh_token') === 'string');
  const noStore: PassiveRuleFinding[] = holding.flatMap((x) => {
    const cc = answerHeader(x, 'cache-control');
    return cc !== undefined && /(^|,)\s*no-store\s*(,|$)/i.test(cc) ? [] : [{ message: `the answer holding tokens carries ${cc === undefined ? 'no Cache-Control' : `Cache-Control: ${cc}`}, not no-store`, expected: 'Cache-Control: no-store', actual: cc ?? null, exchange: x }];
  });
  const refused = token.filter((x) => x.recorded.status >= 400 && x.recorded.status < 500);
  const errors: PassiveRuleFinding[] = refused.flatMap((x) => {
    const body = answerJson(x);
    const error = field(body, 'error');
    const problems: string[] = [];
    if (!isObject(body)) problems.push('its body is not a JSON object');
    else if (typeof error !== 'string' || !TOKEN_ERRORS.includes(error)) problems.push(error === undefined ? 'it has no error' : `its error ${JSON.stringify(error)} is none of ${TOKEN_ERRORS.join(', ')}`);
    if (x.recorded.status !== 400 && !(x.recorded.status === 401 && error === 'invalid_client')) problems.push(`its status is ${x.recorded.status}, not 400 (401 only for invalid_client)`);
    return problems.length ? [{ message: `the token endpoint's refusal: ${problems.join('; ')}`, exchange: x }] : [];
  });
  const issued = succeeded.filter((x) => typeof field(answerJson(x), 'access_token') === 'string');
  const expiresIn: PassiveRuleFinding[] = issued.filter((x) => field(answerJson(x), 'expires_in') === undefined).map((x) => ({ message: 'the token answer carries no expires_in', exchange: x }));
  return [
    verdict('CTX-SRV-TOKEN-RESPONSE', succeeded.length, response, 'the recording holds no successful (2xx) answer of the token endpoint'),
    verdict('CTX-SRV-TOKEN-NO-STORE', holding.length, noStore, 'the recording holds no token endpoint answer holding a token'),
    verdict('CTX-SRV-TOKEN-ERROR-SHAPE', refused.length, errors, 'the recording holds no refusal (4xx) of the token endpoint'),
    verdict('CTX-SRV-EXPIRES-IN', issued.length, expiresIn, 'the recording holds no token answer that issued an access token'),
  ];
}

/**
 * The token endpoint's answers (C, Endpoints 5; OAuth 2.1 sections 3.2.3 and 3.2.4): every
 * recorded success is a 200 JSON object with access_token and token_type Bearer, every answer
 * holding a token says Cache-Control: no-store, every refusal is 400 (401 for invalid_client)
 * with a listed error, and issued tokens carry expires_in. A masked token (`***`) is still a
 * token: its value is not what these rules judge.
 */
export const tokenAnswers: PassiveRule = {
  description: "recorded token endpoint answers: 200 JSON with access_token and token_type Bearer, Cache-Control: no-store on answers holding tokens, refusals 400 with a listed error, expires_in",
  requirements: ['CTX-SRV-TOKEN-RESPONSE', 'CTX-SRV-TOKEN-NO-STORE', 'CTX-SRV-TOKEN-ERROR-SHAPE', 'CTX-SRV-EXPIRES-IN'],
  judge: judgeTokens,
};
