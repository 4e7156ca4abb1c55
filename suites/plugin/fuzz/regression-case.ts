import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { FuzzFinding } from './judge-run.js';

/** What a regression case is made from: the shrunk request, the finding, and how to replay it. */
export interface FuzzRegression {
  seed: number;
  /** The request decoded, exactly as `fuzz-plugin-<seed>.json` holds it. */
  request: unknown;
  finding: FuzzFinding;
  replay: string;
}

/**
 * The counterexample as a case file for the plugin suite: one case `fuzz-<seed>` that runs the
 * plugin on the exact request through `plugin.fuzzRequest`, judged as the fuzzer judged it. The
 * schema path is the one a file in `suites/plugin/cases/` uses, where it is meant to be committed.
 */
export function regressionCaseYaml(r: FuzzRegression): string {
  const item = {
    id: `fuzz-${r.seed}`,
    description: `The request specgate fuzz plugin shrank to with seed ${r.seed} (${r.finding.requirement}: ${r.finding.kind}); replay the search with: ${r.replay}`,
    requirements: [r.finding.requirement],
    needs: ['plugin_command'],
    steps: [{ check: 'plugin.fuzzRequest', with: { request: r.request } }],
  };
  const header = [
    '# yaml-language-server: $schema=../../../schemas/cases.schema.json',
    '#',
    `# Regression case: the plugin broke ${r.finding.requirement} on the request below (found by fuzzing, shrunk).`,
    '# It holds the exact request, so it fails while the bug is there and passes once it is fixed.',
    "# Review it, then commit it into the plugin suite's cases/ folder.",
  ];
  return `${header.join('\n')}\n${stringify([item])}`;
}

/** Writes `<outDir>/fuzz-plugin-<seed>.yaml` (the folder exists: the other counterexample files are in it). */
export function writeRegressionCase(outDir: string, r: FuzzRegression): string {
  const file = join(outDir, `fuzz-plugin-${r.seed}.yaml`);
  writeFileSync(file, regressionCaseYaml(r));
  return file;
}
