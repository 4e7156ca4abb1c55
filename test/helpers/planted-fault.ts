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
