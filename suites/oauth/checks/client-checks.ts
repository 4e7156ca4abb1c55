import type { CheckContext, TypedCheck } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import type { DeviceScript } from './client-device-flow.js';
import { deviceJudges } from './client-device-judges.js';
import { runDeviceFlow, type DeviceRunOptions } from './client-device-run.js';
import { argsOf, isFailed, judgeRun, numberArg, verdictFailure, type Judge, type Verdict } from './client-judging.js';
import { FIXED_MUTATIONS, generatedMutation, judgeStateAbort, judgeStateUnguessable, tamperState, type StateMutation } from './client-state-judges.js';
import { WEB_JUDGES } from './client-web-judges.js';
import { runWebFlow, type WebRun } from './client-web-run.js';

/**
 * The typed checks of the oauth suite's client side: specgate plays the platform (spec 000
 * part B) and the person at the browser, starts the client application under test (var
 * `client_command`), and judges the requirements the case lists from what the platform saw.
 */

function clientCommand(ctx: CheckContext): unknown {
  const v = ctx.vars['client_command'];
  if (v === undefined || v === '') throw new SpecgateError('SG_CONFIG', 'no client application to judge: give --client "<command line>" or set vars.client_command');
  return v;
}

/**
 * `oauth.clientWebFlow`: the web application flow, approved by the user, end to end.
 * `launches` (default 1; 2 for OAUTH-CLIENT-STATE, which compares two launches).
 */
export const clientWebFlow: TypedCheck = async (ctx, raw) => {
  const args = argsOf('oauth.clientWebFlow', raw, ['launches', 'scope']);
  const launches = Math.max(1, Math.round(numberArg('oauth.clientWebFlow', args, 'launches', 1)));
  const command = clientCommand(ctx);
  const scope = scopeArg('oauth.clientWebFlow', args);
  const runs = await Promise.all(Array.from({ length: launches }, () => runWebFlow(ctx, command, scope === undefined ? {} : { scope })));
  const judges: Record<string, Judge<WebRun[]>> = { 'OAUTH-CLIENT-STATE': judgeStateUnguessable };
  for (const [id, judge] of Object.entries(WEB_JUDGES)) judges[id] = (rs) => judge(rs[0] as WebRun);
  judgeRun(ctx, 'oauth.clientWebFlow', judges, runs);
};

/**
 * `oauth.clientStateMismatch`: the genuine redirect with its state changed is delivered; the
 * client must not exchange its code (OAUTH-CLIENT-STATE-ABORT). Every fixed change (missing,
 * empty, truncated, case flipped) runs once, then `runs` generated ones (another value, the
 * state with a suffix; default 4) as a property, shrunk and replayable on failure.
 */
export const clientStateMismatch: TypedCheck = async (ctx, raw) => {
  const args = argsOf('oauth.clientStateMismatch', raw, ['runs']);
  const runs = Math.max(1, Math.round(numberArg('oauth.clientStateMismatch', args, 'runs', 4)));
  const command = clientCommand(ctx);
  const attempt = async (m: StateMutation): Promise<Verdict> => {
    const v = judgeStateAbort(await runWebFlow(ctx, command, { tamper: tamperState(m), finishMs: 5000 }));
    return isFailed(v) ? { ...v, message: `${v.message} (state ${m.kind})` } : v;
  };
  const fixed = await Promise.all(FIXED_MUTATIONS.map(attempt));
  const unjudgedFirst = fixed.find((v): v is { unjudged: string } => 'unjudged' in v);
  if (unjudgedFirst) throw new SpecgateError('SG_TARGET_PROTOCOL', `not judged: OAUTH-CLIENT-STATE-ABORT: ${unjudgedFirst.unjudged}`);
  const failed = fixed.find(isFailed);
  if (failed) {
    ctx.fail(verdictFailure('OAUTH-CLIENT-STATE-ABORT', failed));
    return;
  }
  const notJudged: string[] = [];
  await ctx.property(
    generatedMutation,
    async (m) => {
      const v = await attempt(m);
      if ('unjudged' in v) notJudged.push(`${m.kind}: ${v.unjudged}`);
      else if (!v.ok) return verdictFailure('OAUTH-CLIENT-STATE-ABORT', v);
      return undefined;
    },
    { runs, label: 'state mutation' },
  );
  if (notJudged.length) throw new SpecgateError('SG_TARGET_PROTOCOL', `not judged: OAUTH-CLIENT-STATE-ABORT: ${notJudged[0]}`);
};

const DEVICE_ARGS = ['interval', 'slowDownAtPoll', 'expireAtPoll', 'user', 'expect', 'budgetSeconds', 'minGapsAfterSlowDown', 'scope'];

/** `scope`: the space-delimited scopes the client is told to request (SPECGATE_SCOPE). */
function scopeArg(check: string, args: Record<string, unknown>): string | undefined {
  const v = args['scope'];
  if (v !== undefined && typeof v !== 'string') throw new SpecgateError('SG_SUITE_SCHEMA', `check ${check}: scope must be a string of space-delimited scopes`);
  return v;
}

function userArg(v: unknown): DeviceRunOptions['user'] {
  if (v === undefined) return undefined;
  const u = v as { action?: unknown; afterPolls?: unknown };
  if (!u || typeof u !== 'object' || (u.action !== 'approve' && u.action !== 'deny') || typeof u.afterPolls !== 'number' || u.afterPolls < 1) {
    throw new SpecgateError('SG_SUITE_SCHEMA', 'check oauth.clientDeviceFlow: user must be { action: approve | deny, afterPolls: <n >= 1> }');
  }
  return { action: u.action, afterPolls: u.afterPolls };
}

/**
 * `oauth.clientDeviceFlow`: the device flow with the platform's answers steered by the case.
 * Arguments: `interval` (seconds, default 1), `slowDownAtPoll`, `expireAtPoll` (see
 * DeviceScript), `user` ({action: approve | deny, afterPolls}), `expect` (access_denied,
 * expired_token or token: what POLL-STOP needs to have happened), `minGapsAfterSlowDown`,
 * `budgetSeconds` (default 45).
 */
export const clientDeviceFlow: TypedCheck = async (ctx, raw) => {
  const name = 'oauth.clientDeviceFlow';
  const args = argsOf(name, raw, DEVICE_ARGS);
  const script: DeviceScript = {};
  if (args['slowDownAtPoll'] !== undefined) script.slowDownAtPoll = numberArg(name, args, 'slowDownAtPoll');
  if (args['expireAtPoll'] !== undefined) script.expireAtPoll = numberArg(name, args, 'expireAtPoll');
  const expect = args['expect'];
  if (expect !== undefined && expect !== 'access_denied' && expect !== 'expired_token' && expect !== 'token') {
    throw new SpecgateError('SG_SUITE_SCHEMA', `check ${name}: expect must be access_denied, expired_token or token`);
  }
  const user = userArg(args['user']);
  const command = clientCommand(ctx);
  const interval = numberArg(name, args, 'interval', 1);
  const budgetMs = numberArg(name, args, 'budgetSeconds', 45) * 1000;
  const scope = scopeArg(name, args);
  const run = await runDeviceFlow(ctx, command, { interval, script, ...(user ? { user } : {}), budgetMs, ...(scope !== undefined ? { scope } : {}) });
  const judges = deviceJudges({ ...(typeof expect === 'string' ? { expect } : {}), minGapsAfterSlowDown: numberArg(name, args, 'minGapsAfterSlowDown', 0) });
  judgeRun(ctx, name, judges, run);
};
