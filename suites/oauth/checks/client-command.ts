import type { CheckContext } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';

/** The client application as errors name it: how a user gives it. */
export const CLIENT_APP = 'client application (--client "<command line>" or vars.client_command)';

/**
 * The client application under test: `vars.client_command`, which `--client "<command line>"`
 * sets and the embedded reference fills with the reference client. It becomes an argument
 * vector by the engine's one command-line rule (src/targets/command-line.ts).
 */
export function clientCommand(ctx: CheckContext): unknown {
  const v = ctx.vars['client_command'];
  if (v === undefined || v === '') throw new SpecgateError('SG_CONFIG', 'no client application to judge: give --client "<command line>" or set vars.client_command in the target profile');
  return v;
}

/**
 * What makes two client runs the same observation: the application and the arguments that
 * steer the run. Cases that agree on both share one launch (judged checks with `share`).
 */
export function runKey(ctx: CheckContext, steering: Record<string, unknown>): unknown {
  return { client: ctx.vars['client_command'] ?? null, ...steering };
}
