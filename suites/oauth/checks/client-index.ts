import type { TargetOption, TypedCheck } from '../../../src/engine/suite-module.js';
import { clientDeviceFlow } from './client-device-check.js';
import { clientStateMismatch, clientWebFlow } from './client-web-checks.js';

/**
 * The client side of the oauth suite, for the suite module to spread in:
 * `checks: { ...serverChecks, ...clientChecks }`, `targetOptions: [clientTargetOption]`.
 * Cases reach them as `oauth.clientWebFlow`, `oauth.clientStateMismatch`, `oauth.clientDeviceFlow`.
 */
export const clientChecks: Record<string, TypedCheck> = { clientWebFlow, clientStateMismatch, clientDeviceFlow };

/**
 * `specgate run --suite oauth --client "<command line>"`: judge a client application. The
 * command is started in the client-process harness (src/targets/client-process/) with the
 * SPECGATE_* variables of the launch contract (reference/oauth/client/README.md), once per
 * observed run; it becomes an argv by the engine's one command-line rule (src/targets/command-line.ts).
 */
export const clientTargetOption: TargetOption = {
  flag: 'client',
  valueName: 'command',
  description: 'judge this OAuth client application: a command line started with SPECGATE_* variables naming the platform specgate plays (reference/oauth/client/README.md)',
  vars: (value) => ({ client_command: value }),
};
