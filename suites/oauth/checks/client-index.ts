import type { TargetOption, TypedCheck } from '../../../src/engine/suite-module.js';
import { clientDeviceFlow, clientStateMismatch, clientWebFlow } from './client-checks.js';

/**
 * The client side of the oauth suite, for the suite module to spread in:
 * `checks: { ...serverChecks, ...clientChecks }`, `targetOptions: [clientTargetOption]`.
 * Cases reach them as `oauth.clientWebFlow`, `oauth.clientStateMismatch`, `oauth.clientDeviceFlow`.
 */
export const clientChecks: Record<string, TypedCheck> = { clientWebFlow, clientStateMismatch, clientDeviceFlow };

/**
 * `specgate run --suite oauth --client "<command line>"`: judge a client application. The
 * command is started once per case with the SPECGATE_* variables of the launch contract
 * (reference/oauth/client/README.md); a string runs through /bin/sh, a list is an argv.
 */
export const clientTargetOption: TargetOption = {
  flag: 'client',
  valueName: 'command',
  description: 'judge this OAuth client application: a command line started with SPECGATE_* variables naming the platform specgate plays (reference/oauth/client/README.md)',
  vars: (value) => ({ client_command: value }),
};
