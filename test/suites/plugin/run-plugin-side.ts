import type { RunResult } from '../../../src/engine/model.js';
import { run } from '../../../src/engine/run.js';
import { suite } from '../../../suites/plugin/index.js';
import { EXTRA_CA_CERTS_VAR } from '../../../reference/plugin/launcher.js';
export { erroredCases, failedRequirements } from '../../helpers/verdicts.js';

/**
 * Runs the plugin side of the suite in-process (the suite and engine from their sources) on a
 * plugin script, as `specgate run --suite plugin --side plugin --plugin <script>` does, with
 * the variables a planted-fault profile gives (a parameter that makes the reference fail).
 */
export async function runPluginSide(script: string, opts: { seed?: number; runs?: number; cases?: string[]; fixtures?: string; stricter?: boolean; requireJudged?: number } = {}): Promise<RunResult> {
  const vars = { plugin_command: [process.execPath, script], plugin_error_parameter: 'fail=planted schema error', ...(opts.fixtures ? { plugin_fixtures: opts.fixtures } : {}) };
  // the scripts make no TLS connection: they start without the certificate file Node 20 parses at every start
  const exec = { command: process.execPath, args: [script], ...(process.env[EXTRA_CA_CERTS_VAR] ? { env: { [EXTRA_CA_CERTS_VAR]: '' } } : {}) };
  return run({
    modules: [suite],
    suites: ['plugin'],
    sides: { plugin: 'plugin' },
    seed: opts.seed ?? 7,
    runs: opts.runs ?? 1,
    shrink: false,
    ...(opts.cases ? { cases: opts.cases } : {}),
    ...(opts.stricter ? { stricter: true } : {}),
    ...(opts.requireJudged === undefined ? {} : { requireJudged: opts.requireJudged }),
    targets: { plugin: { section: { vars, exec }, label: 'plugin script', secrets: [] } },
  });
}

/** Every case that did not pass, with its reason and failures, for assertion messages. */
export function unpassed(r: RunResult): string {
  return r.suites.flatMap((s) => s.cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id} [${c.outcome}] ${c.reason ?? ''} ${c.failures.map((f) => `${f.requirement}: ${f.message}`).join(' | ')}`)).join('\n');
}
