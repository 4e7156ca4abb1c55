import type { TargetOption, TypedCheck } from '../../../src/engine/suite-module.js';
import { clientScenarios } from './client-check.js';

/**
 * The client side of the ctx-auth suite, for the suite module to spread in:
 * `checks: { ...serverChecks, ...clientChecks }`, `targetOptions: [ctxClientOption]`.
 * Cases reach it as `ctx-auth.clientScenarios`.
 */
export const clientChecks: Record<string, TypedCheck> = { clientScenarios };

/**
 * `specgate run --suite ctx-auth --ctx-client "<command line>"`: judge a context-protocol client
 * instead of the reference one. The command is started with the SPECGATE_CTX_* variables of the
 * client contract (reference/ctx-auth/client/README.md), once per played scenario; the embedded
 * reference server side still starts (the flag adds a party, it does not replace the target).
 */
export const ctxClientOption: TargetOption = {
  flag: 'ctx-client',
  valueName: 'command',
  description: 'judge this context-protocol client: a command line started with SPECGATE_CTX_SERVER_URL and the rest of the client contract (reference/ctx-auth/client/README.md), against the servers specgate plays',
  vars: (value) => ({ ctx_client_command: value }),
  layer: 'reference',
};
