import type { ReferenceTarget, SuiteModule } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { referenceCtxClientCommand } from '../../../reference/ctx-auth/client/command.js';
import { referenceStartOptions, startCtxReference, type CtxReferenceOptions } from '../../../reference/ctx-auth/server/reference-target.js';
import { suite as ctxAuth } from '../../../suites/ctx-auth/index.js';

/**
 * The ctx-auth suite with its reference server started in one of its server modes, for
 * `specgate run --suite-module <this file, compiled>`: the mode is named by the environment
 * variable SPECGATE_CTX_REFERENCE_MODE (a module loaded by the command line takes no arguments).
 */
export const REFERENCE_MODES = {
  default: {},
  'no-metadata': { metadata: false },
  'no-registration': { registration: false },
  'custom-paths': { customPaths: true },
  // a third party played by the run at a free port (vars.delegation_url), C Auth 9
  delegation: { delegation: true },
} as const satisfies Record<string, Partial<CtxReferenceOptions>>;

export type ReferenceMode = keyof typeof REFERENCE_MODES;

export const MODE_VARIABLE = 'SPECGATE_CTX_REFERENCE_MODE';

function chosenMode(): ReferenceMode {
  const name = process.env[MODE_VARIABLE] ?? 'default';
  if (!(name in REFERENCE_MODES)) throw new SpecgateError('SG_USAGE', `${MODE_VARIABLE}=${name} names no reference mode; use one of ${Object.keys(REFERENCE_MODES).join(', ')}`);
  return name as ReferenceMode;
}

/** The reference in `mode`, with the reference client as the suite's own reference has it. */
export function referenceIn(mode: ReferenceMode): ReferenceTarget {
  return { start: (start) => startCtxReference({ ...referenceStartOptions(start), ...REFERENCE_MODES[mode], extraVars: { ctx_client_command: referenceCtxClientCommand() } }) };
}

export const suite: SuiteModule = { ...ctxAuth, reference: referenceIn(chosenMode()) };
