import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { optionalText } from './support.js';
import { thirdPartyAt, type PlayedThirdParty, type ThirdPartySession } from './third-party-server.js';

/** What a case asks of the played third party (spec 000, C, Authentication 9). */
export type ThirdPartyAction = 'start' | 'observe' | 'deny' | 'revoke' | 'expire';

interface ThirdPartyArgs {
  action: ThirdPartyAction;
  /** The session acted on, among those since the case's start: the first or the last (default). */
  session?: 'first' | 'last';
}

/** Why a case about delegation does not apply to a server the profile does not say delegates. */
export const NOT_DELEGATING = 'the target profile names no third-party authorization server (vars.delegation_url), so the server is not judged as delegating: third-party delegation is optional (C, Authentication 9)';

/** The played third party when the profile says the server delegates; undefined otherwise. */
export async function playedThirdParty(ctx: CheckContext): Promise<PlayedThirdParty | undefined> {
  const url = optionalText(ctx, 'delegation_url');
  return url === undefined ? undefined : thirdPartyAt(url);
}

/** The sessions the third party approved since the case's start (`tp_mark`). */
function sinceMark(ctx: CheckContext, tp: PlayedThirdParty): ThirdPartySession[] {
  const mark = ctx.vars['tp_mark'];
  if (typeof mark !== 'number') throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: run ctx-auth.thirdParty with action: start before any other action`);
  return tp.sessions.slice(mark);
}

/**
 * `ctx-auth.thirdParty`: specgate as the third-party authorization server a delegating server
 * uses (C, Authentication 9), at vars.delegation_url; without it the case is not applicable.
 * `start` (first in a case) starts it if need be and marks where the case's sessions begin;
 * `deny` refuses the next authorization request with access_denied; `revoke` ends a session (its
 * tokens and its grant: the refresh token no longer renews); `expire` reports the session's
 * access tokens inactive while its refresh token still renews it. Every action then sets what the
 * third party saw since the start: `tp_authorizations` (authorization requests approved),
 * `tp_last_authorization` (the last one's parameters), `tp_exchanged` (whether the last approved
 * code was exchanged at its token endpoint), `tp_access_tokens` (every access token it issued)
 * and `tp_renewals` (refresh grants answered). It judges nothing. Cases using it are `exclusive`:
 * the third party is shared by the run, and `deny` holds for whatever request comes next.
 */
export const thirdPartyCheck = defineCheck<ThirdPartyArgs>({
  description: 'plays the third-party authorization server a delegating server uses (vars.delegation_url): start, deny the next authorization, revoke or expire a session; sets what it saw',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['action'],
    properties: {
      action: { enum: ['start', 'observe', 'deny', 'revoke', 'expire'], description: 'what the third party does' },
      session: { enum: ['first', 'last'], description: 'the session revoked or expired, among the case\'s (default last)' },
    },
  },
  judges: [],
  sets: ['tp_mark', 'tp_authorizations', 'tp_last_authorization', 'tp_exchanged', 'tp_access_tokens', 'tp_renewals'],
  async run(ctx, args) {
    const tp = await playedThirdParty(ctx);
    if (!tp) return ctx.notApplicable(NOT_DELEGATING);
    if (args.action === 'start') {
      ctx.vars['tp_mark'] = tp.sessions.length;
      tp.denyNext = false;
    }
    const sessions = sinceMark(ctx, tp);
    if (args.action === 'deny') tp.denyNext = true;
    if (args.action === 'revoke' || args.action === 'expire') {
      const s = args.session === 'first' ? sessions[0] : sessions[sessions.length - 1];
      if (!s) throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: no third-party session to ${args.action}: the case authorizes through the server before it`);
      if (args.action === 'revoke') s.revoked = true;
      else for (const t of s.accessTokens) s.expired.add(t);
    }
    const last = sessions[sessions.length - 1];
    Object.assign(ctx.vars, {
      tp_authorizations: sessions.length,
      tp_last_authorization: last?.request,
      tp_exchanged: last?.exchanged ?? false,
      tp_access_tokens: sessions.flatMap((s) => s.accessTokens),
      tp_renewals: sessions.reduce((n, s) => n + s.renewals, 0),
    });
  },
});
