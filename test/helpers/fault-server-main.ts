import { flagValue } from '../../src/targets/flag-value.js';

/**
 * The body of a suite's `fault-server` process: reads `--fault <name>` from the command line,
 * prints the usage and exits 2 without it, else runs the suite's standalone reference with that
 * planted fault's options (`--port` and `--lifetime` are read by `runStandalone`).
 */
export function faultServerMain<O>(runStandalone: (argv: readonly string[], options: O) => Promise<void>, fault: (name: string) => { options: O }): void {
  const argv = process.argv.slice(2);
  const name = flagValue(argv, 'fault');
  if (!name) {
    process.stderr.write('usage: fault-server --fault <name> [--port N] [--lifetime S]\n');
    process.exit(2);
  }
  void runStandalone(argv, fault(name).options);
}
