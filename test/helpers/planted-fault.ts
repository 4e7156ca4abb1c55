import { flagValue } from '../../src/targets/flag-value.js';

/**
 * The planted fault a fault client process runs with: the one `--fault <name>` names on its
 * command line. A missing or unknown name is said on stderr with the known ones, and the
 * process exits with `usageExit`, the usage status of the launch contract it follows.
 */
export function plantedFault<F>(faults: Readonly<Record<string, F>>, usageExit: number): F {
  const name = flagValue(process.argv, 'fault') ?? '';
  const fault = faults[name];
  if (fault === undefined) {
    process.stderr.write(`unknown fault "${name}": run with --fault <name>, one of ${Object.keys(faults).join(', ')}\n`);
    process.exit(usageExit);
  }
  return fault;
}

/**
 * What a planted fault of a reference must do to the verdicts, each with why (the fault kits of
 * oauth, ctx-auth and collation): `requirement` fails; `alsoBreaks` names each other requirement
 * the very same deviation breaks by that requirement's own wording; `blocks` names each
 * requirement reported blocked by `requirement` (its cases rest on the rule the fault breaks).
 */
export interface ExplainedFault {
  description: string;
  requirement: string;
  alsoBreaks?: Record<string, string>;
  blocks?: Record<string, string>;
}
