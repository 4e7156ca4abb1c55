import type { CheckContext, TypedCheck } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import type { DeviceScript } from './client-device-flow.js';
import { deviceJudges } from './client-device-judges.js';
import { runDeviceFlow, type DeviceRunOptions } from './client-device-run.js';
import { argsOf, judgeRun, numberArg, type Judge } from './client-judging.js';
import { judgeStateAbort, judgeStateUnguessable, stateMutation, tamperState, type StateMutation } from './client-state-judges.js';
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
  const args = argsOf('oauth.clientWebFlow', raw, ['launches']);
  const launches = Math.max(1, Math.round(numberArg('oauth.clientWebFlow', args, 'launches', 1)));
  const command = clientCommand(ctx);
  const runs = await Promise.all(Array.from({ length: launches }, () => runWebFlow(ctx, command)));
  const judges: Record<string, Judge<WebRun[]>> = { 'OAUTH-CLIENT-STATE': judgeStateUnguessable };
  for (const [id, judge] of Object.entries(WEB_JUDGES)) judges[id] = (rs) => judge(rs[0] as WebRun);
  judgeRun(ctx, 'oauth.clientWebFlow', judges, runs);
};

/**
 * `oauth.clientStateMismatch`: the genuine redirect with its state changed (generated
 * mutations: another value, missing, empty, truncated, extended, case flipped) is delivered;
 * the client must not exchange its code (OAUTH-CLIENT-STATE-ABORT). `runs` default 6.
 */
export const clientStateMismatch: TypedCheck = async (ctx, raw) => {
  const args = argsOf('oauth.clientStateMismatch', raw, ['runs']);
  const runs = Math.max(1, Math.round(numberArg('oauth.clientStateMismatch', args, 'runs', 6)));
  const command = clientCommand(ctx);
  const judge = (m: StateMutation): Promise<WebRun> => runWebFlow(ctx, command, { tamper: tamperState(m), finishMs: 5000 });
  // One plain mismatch first: a client that cannot be judged at all is an error, not a
  // property failure; one that already exchanges there needs no search.
  const first = judgeStateAbort(await judge({ kind: 'other', value: 'not-the-state-this-client-sent' }));
  if ('unjudged' in first) throw new SpecgateError('SG_TARGET_PROTOCOL', `not judged: OAUTH-CLIENT-STATE-ABORT: ${first.unjudged}`);
  if (!first.ok) {
    ctx.fail({ requirement: 'OAUTH-CLIENT-STATE-ABORT', message: first.message, expected: first.expected, actual: first.actual, ...(first.exchange ? { exchange: first.exchange } : {}) });
    return;
  }
  const notJudged: string[] = [];
  await ctx.property(
    stateMutation,
    async (m) => {
      const v = judgeStateAbort(await judge(m));
      if ('unjudged' in v) notJudged.push(`${m.kind}: ${v.unjudged}`);
      else if (!v.ok) return { requirement: 'OAUTH-CLIENT-STATE-ABORT', message: `${v.message} (state ${m.kind})`, expected: v.expected, actual: v.actual, ...(v.exchange ? { exchange: v.exchange } : {}) };
      return undefined;
    },
    { runs, label: 'state mutation' },
  );
  if (notJudged.length) throw new SpecgateError('SG_TARGET_PROTOCOL', `not judged: OAUTH-CLIENT-STATE-ABORT: ${notJudged[0]}`);
};

const DEVICE_ARGS = ['interval', 'slowDownAtPoll', 'expireAtPoll', 'user', 'expect', 'budgetSeconds', 'minGapsAfterSlowDown'];

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
  const run = await runDeviceFlow(ctx, clientCommand(ctx), {
    interval: numberArg(name, args, 'interval', 1),
    script,
    ...(user ? { user } : {}),
    budgetMs: numberArg(name, args, 'budgetSeconds', 45) * 1000,
  });
  const judges = deviceJudges({ ...(typeof expect === 'string' ? { expect } : {}), minGapsAfterSlowDown: numberArg(name, args, 'minGapsAfterSlowDown', 0) });
  judgeRun(ctx, name, judges, run);
};
