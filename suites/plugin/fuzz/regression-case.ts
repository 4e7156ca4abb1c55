import { stringify } from 'yaml';
import { FUZZ_JUDGES } from '../checks/fuzz-request.js';
import type { FuzzFinding } from './judge-run.js';

/** What a regression case is made from: the shrunk request, the finding, and how to replay it. */
export interface FuzzRegression {
  seed: number;
  /** The case ID (default `fuzz-<seed>`); the fuzzer derives it from the file name, so each is unique. */
  id?: string;
  /** The request decoded, exactly as the `.json` counterexample file holds it. */
  request: unknown;
  finding: FuzzFinding;
  replay: string;
  /** The wire order the request was sent in, for a finding that needs it (field order). */
  order?: string;
}

/**
 * Why a finding cannot be written as a regression case, or undefined when it can: the case runs
 * the request once through `plugin.fuzzRequest`, which judges only the requirements it declares
 * (a field order, a repeat or an import comparison needs runs that check does not make).
 */
export function noRegressionCase(requirement: string): string | undefined {
  if (FUZZ_JUDGES.includes(requirement)) return undefined;
  return `plugin.fuzzRequest does not judge ${requirement}; the .bin and .json files hold the request`;
}

/**
 * The counterexample as a case file for the plugin suite: one case that runs the plugin on the
 * exact request through `plugin.fuzzRequest`, judged as the fuzzer judged it. The schema path is
 * the one a file in `suites/plugin/cases/` uses, where it is meant to be committed.
 */
export function regressionCaseYaml(r: FuzzRegression): string {
  // `suite` names the suite wherever the file is kept: `specgate run --suite plugin --cases <its folder>` runs it
  const item = {
    id: r.id ?? `fuzz-${r.seed}`,
    suite: 'plugin',
    description: `The request specgate fuzz plugin shrank to with seed ${r.seed} (${r.finding.requirement}: ${r.finding.kind}); replay the search with: ${r.replay}`,
    requirements: [r.finding.requirement],
    needs: ['plugin_command'],
    steps: [{ check: 'plugin.fuzzRequest', with: { request: r.request, ...(r.order === undefined ? {} : { order: r.order }) } }],
  };
  const header = [
    '# yaml-language-server: $schema=../../../schemas/cases.schema.json',
    '#',
    `# Regression case: the plugin broke ${r.finding.requirement} on the request below (found by fuzzing, shrunk).`,
    '# It holds the exact request, so it fails while the bug is there and passes once it is fixed.',
    "# Review it, then keep it with your project (specgate run --suite plugin --cases <its folder>) or commit it into the plugin suite's cases/ folder.",
  ];
  return `${header.join('\n')}\n${stringify([item])}`;
}
