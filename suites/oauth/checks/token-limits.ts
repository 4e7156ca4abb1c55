import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { act, need, postForm, str } from './support.js';

/**
 * Token multiplicity and creation rate (spec 000, B, States and transitions "token active";
 * B, Limits). Both start from a clean slate (the user revokes the application on the review
 * page, then an hour passes so earlier creations leave the hourly window) and leave one.
 */

async function issueToken(ctx: CheckContext, scope: string): Promise<string> {
  const r = await act(ctx, 'approve', { query: { client_id: need(ctx, 'client_id'), scope, state: 'limits' } });
  const code = str(r['code']);
  // the case rests on the web flow: no code means the redirect rule does not hold
  if (!code) ctx.blocked('OAUTH-AUTHZ-REDIRECT-CODE', `the web flow issued no code (outcome ${str(r['outcome'])}), so tokens cannot be created`);
  const sent = await postForm(ctx, `${need(ctx, 'auth_url')}/login/oauth/access_token`, { client_id: need(ctx, 'client_id'), client_secret: need(ctx, 'client_secret'), code });
  const token = str(sent.fields['access_token']);
  if (!token) ctx.blocked('OAUTH-TOKEN-CODE-VALID', `the code exchange of a fresh code returned no token (HTTP ${sent.res.status}), so tokens cannot be created`, sent.res.exchange);
  return token;
}

/**
 * Whether GET {api_url}/user still accepts the token (HTTP 200). Which user it answers is
 * OAUTH-API-USER-BEARER's business, and the user's fields are not shown in the spec.
 */
async function works(ctx: CheckContext, token: string): Promise<{ ok: boolean; status: number }> {
  const res = await ctx.request({ method: 'GET', url: `${need(ctx, 'api_url')}/user`, headers: { Authorization: `Bearer ${token}` }, accept: 'json' });
  return { ok: res.status === 200, status: res.status };
}

/** Revocation is seen through GET /user: if it refuses even a fresh token, the case is blocked by the rule that it accepts one. */
function needFreshTokenWorks(ctx: CheckContext, fresh: { ok: boolean; status: number }): void {
  if (!fresh.ok) ctx.blocked('OAUTH-API-USER-BEARER', `GET {api_url}/user refuses a fresh token (HTTP ${fresh.status}), so revocation cannot be observed`);
}


const scopeArgs = {
  type: 'object',
  additionalProperties: false,
  properties: { scope: { type: 'string', description: 'the scope of the tokens created' } },
} as const;
const noArgs = { type: 'object', additionalProperties: false, properties: {} } as const;

async function cleanSlate(ctx: CheckContext): Promise<void> {
  await act(ctx, 'revoke', { client_id: need(ctx, 'client_id') });
  await ctx.wait(3600);
}

/** The eleventh token of a user/application/scope combination revokes the oldest one only. */
export const tokenMultiplicity = defineCheck<{ scope?: string }>({
  description: 'ten tokens, an hour, an eleventh of the same combination: only the oldest stops working',
  args: scopeArgs,
  judges: ['OAUTH-TOKEN-ELEVENTH-REVOKES-OLDEST'],
  run: (ctx, args) => eleventhRevokesOldest(ctx, args.scope ?? 'repo'),
});

async function eleventhRevokesOldest(ctx: CheckContext, scope: string): Promise<void> {
  await cleanSlate(ctx);
  const tokens: string[] = [];
  for (let i = 0; i < 10; i++) tokens.push(await issueToken(ctx, scope));
  // Outside the hourly creation window, so the rate limit cannot stand in for revocation.
  await ctx.wait(3600);
  const eleventh = await issueToken(ctx, scope);
  const newest = await works(ctx, eleventh);
  needFreshTokenWorks(ctx, newest);
  const oldest = await works(ctx, tokens[0] ?? '');
  const second = await works(ctx, tokens[1] ?? '');
  const requirement = 'OAUTH-TOKEN-ELEVENTH-REVOKES-OLDEST';
  if (oldest.ok) ctx.fail({ requirement, message: 'after the eleventh token of the combination, the oldest must be revoked', expected: { oldest: 'rejected by GET /user' }, actual: { oldest: oldest.status } });
  if (!second.ok) ctx.fail({ requirement, message: 'only the oldest token is revoked: the second oldest must still work', expected: { second: 200 }, actual: { second: second.status } });
  await cleanSlate(ctx);
}

/**
 * Ten creations in an hour: the next authorization shows a re-authorization prompt rather
 * than completing by itself, and the oldest token is not revoked.
 */
export const tokenCreationRate = defineCheck<{ scope?: string }>({
  description: 'ten token creations in an hour: the next authorization prompts again and the oldest token survives',
  args: scopeArgs,
  judges: ['OAUTH-TOKEN-RATE-REAUTHORIZE'],
  run: (ctx, args) => creationRatePrompts(ctx, args.scope ?? 'gist'),
});

async function creationRatePrompts(ctx: CheckContext, scope: string): Promise<void> {
  await cleanSlate(ctx);
  const tokens: string[] = [];
  for (let i = 0; i < 10; i++) tokens.push(await issueToken(ctx, scope));
  const latest = await works(ctx, tokens[9] ?? '');
  needFreshTokenWorks(ctx, latest);
  const r = await act(ctx, 'open', { query: { client_id: need(ctx, 'client_id'), scope, state: 'rate' } });
  const requirement = 'OAUTH-TOKEN-RATE-REAUTHORIZE';
  if (r['outcome'] === 'redirected' && str(r['code'])) {
    ctx.fail({ requirement, message: 'at ten token creations in an hour the browser must show a re-authorization prompt, not complete the flow by itself', expected: { outcome: 'a prompt page' }, actual: r });
  }
  const oldest = await works(ctx, tokens[0] ?? '');
  if (!oldest.ok) ctx.fail({ requirement, message: 'reaching the creation rate must not revoke the oldest token', expected: { oldest: 200 }, actual: { oldest: oldest.status } });
  await cleanSlate(ctx);
}

/** Up to 50 user code submissions per hour per application are taken, the 51st is refused. */
export const userCodeRate = defineCheck({
  description: 'fifty user code submissions an hour are taken for an application, the fifty-first is refused',
  args: noArgs,
  judges: ['OAUTH-DEVICE-USER-CODE-RATE'],
  run: (ctx) => userCodeSubmissions(ctx),
});

async function userCodeSubmissions(ctx: CheckContext): Promise<void> {
  const requirement = 'OAUTH-DEVICE-USER-CODE-RATE';
  await ctx.wait(3600);
  const enter = async (): Promise<Record<string, unknown>> => {
    const s = await postForm(ctx, `${need(ctx, 'auth_url')}/login/device/code`, { client_id: need(ctx, 'device_client_id') });
    const userCode = str(s.fields['user_code']);
    if (!userCode) ctx.blocked('OAUTH-DEVICE-FORMAT-JSON', `the device authorization request (answer asked as JSON) got no user_code (HTTP ${s.res.status}), so no code can be submitted`, s.res.exchange);
    return act(ctx, 'enter-user-code', { user_code: userCode, verification_uri: str(s.fields['verification_uri']) });
  };
  for (let i = 1; i <= 50; i++) {
    const r = await enter();
    if (r['accepted'] !== true) {
      ctx.fail({ requirement, message: `submission ${i} of 50 in the hour must be taken`, expected: { accepted: true }, actual: r });
      return;
    }
  }
  const over = await enter();
  if (over['accepted'] === true) ctx.fail({ requirement, message: 'the 51st user code submission in an hour for the application must be refused', expected: { accepted: false }, actual: over });
  await ctx.wait(3600);
  const later = await enter();
  if (later['accepted'] !== true) ctx.fail({ requirement, message: 'an hour later submissions must be taken again', expected: { accepted: true }, actual: later });
}

/**
 * The review page (spec 000, B, Endpoints 6): the user revokes the application there, and its
 * token stops working at GET {api_url}/user.
 */
export const reviewRevokes = defineCheck({
  description: "the user revokes the application on the review page and its token stops working",
  args: noArgs,
  judges: ['OAUTH-REVIEW-PAGE'],
  run: (ctx) => revokeOnReviewPage(ctx),
});

async function revokeOnReviewPage(ctx: CheckContext): Promise<void> {
  const requirement = 'OAUTH-REVIEW-PAGE';
  const token = await issueToken(ctx, 'repo');
  const before = await works(ctx, token);
  const r = await act(ctx, 'revoke', { client_id: need(ctx, 'client_id') });
  if (r['outcome'] !== 'revoked') {
    ctx.fail({ requirement, message: `the review page at {auth_url}/settings/connections/applications/<client_id> did not let the user revoke the application`, expected: { outcome: 'revoked' }, actual: r });
    return;
  }
  needFreshTokenWorks(ctx, before);
  const after = await works(ctx, token);
  if (after.ok) ctx.fail({ requirement, message: 'after revoking on the review page the token must stop working', expected: { status: 'not 200' }, actual: { status: after.status } });
}
