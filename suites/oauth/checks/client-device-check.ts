import { judgedCheck } from '../../../src/engine/checks/judged.js';
import { clientCommand, runKey } from './client-command.js';
import type { DeviceScript } from './client-device-flow.js';
import { DEVICE_JUDGES, type DeviceJudgeArgs } from './client-device-judges.js';
import { runDeviceFlow, type DeviceRun } from './client-device-run.js';

/** The arguments of `oauth.clientDeviceFlow`: how the platform and the person steer the run, and what the judges expect. */
interface DeviceArgs extends DeviceJudgeArgs, DeviceScript {
  interval?: number;
  user?: { action: 'approve' | 'deny'; afterPolls: number };
  budgetSeconds?: number;
  scope?: string;
  expiresIn?: number;
}

const POLL = { type: 'integer', minimum: 1 };

/**
 * `oauth.clientDeviceFlow`: the device flow with the platform's answers steered by the case
 * (see DeviceScript), the person approving or cancelling once the client has polled a code
 * `afterPolls` times. `expect` and `minGapsAfterSlowDown` are read only by the judges, so
 * cases that steer the run alike share one launch whatever they expect of it.
 */
export const clientDeviceFlow = judgedCheck<DeviceArgs, DeviceRun>({
  description: 'launch the client for the device flow, steer the platform and the person as the case says, and judge what the platform saw',
  args: {
    type: 'object',
    additionalProperties: false,
    properties: {
      interval: { type: 'number', exclusiveMinimum: 0, description: 'seconds handed out as `interval` with device codes (default 1)' },
      slowDownAtPoll: { ...POLL, description: 'answer slow_down (interval + 5) to this poll of the first device code' },
      expireAtPoll: { ...POLL, description: 'the first device code expires at this poll (answer expired_token)' },
      expiryGraceSeconds: { type: 'integer', minimum: 1, description: 'codes keep answering as valid this many seconds past their expires_in' },
      user: {
        type: 'object',
        additionalProperties: false,
        required: ['action', 'afterPolls'],
        properties: { action: { enum: ['approve', 'deny'] }, afterPolls: POLL },
        description: 'the person approves or cancels each device code once the client has polled it this often',
      },
      expect: { enum: ['access_denied', 'expired_token', 'token'], description: 'what OAUTH-CLIENT-POLL-STOP needs to have happened to be judged' },
      minGapsAfterSlowDown: { type: 'integer', minimum: 0, description: 'OAUTH-CLIENT-POLL-INTERVAL needs this many poll gaps after slow_down' },
      budgetSeconds: { type: 'number', exclusiveMinimum: 0, description: 'upper bound on the whole run (default 45)' },
      scope: { type: 'string', description: 'space-delimited scopes the client is told to request (SPECGATE_SCOPE); default "repo read:user"' },
      expiresIn: { type: 'integer', minimum: 1, description: 'seconds handed out as `expires_in` with device codes, which then expire for real (default 900)' },
    },
  },
  share: true,
  shareBy: ({ expect: _expect, minGapsAfterSlowDown: _gaps, ...steering }, ctx) => runKey(ctx, steering),
  observe: (ctx, args) => {
    const script: DeviceScript = {};
    if (args.slowDownAtPoll !== undefined) script.slowDownAtPoll = args.slowDownAtPoll;
    if (args.expireAtPoll !== undefined) script.expireAtPoll = args.expireAtPoll;
    if (args.expiryGraceSeconds !== undefined) script.expiryGraceSeconds = args.expiryGraceSeconds;
    return runDeviceFlow(ctx, clientCommand(ctx), {
      interval: args.interval ?? 1,
      script,
      budgetMs: (args.budgetSeconds ?? 45) * 1000,
      ...(args.user ? { user: args.user } : {}),
      ...(args.scope !== undefined ? { scope: args.scope } : {}),
      ...(args.expiresIn !== undefined ? { expiresIn: args.expiresIn } : {}),
    });
  },
  judgeBy: DEVICE_JUDGES,
});
