/**
 * Regression cases from shrunk counterexamples: when a YAML property case fails, the case is
 * also written with its generator replaced by the exact input that broke it (and the reference
 * model's answer for it), as a file a team reviews and keeps with its project: later runs load
 * it with `--cases <dir>` (its case names its suite), or it is committed into the suite's own
 * `cases/` folder. It fails while the bug is there and passes once it is fixed, whatever seed
 * later runs use.
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { readYaml } from '../src/engine/loader/yaml-source.js';
import { yamlPackage } from '../src/yaml-package.js';
import type { CaseDef, CaseResult, RunResult } from '../src/engine/model.js';
import { loadSuites, type LoadedSuites } from '../src/engine/load-suites.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { checkOutputFolder, nearestFolder, refuseLinks, writeFileNoFollow } from '../src/reporting/output-path.js';
import { quote, withoutOptions } from './replay.js';

/** A case item of a suite file, as written (before `each:` rows, `use:` fragments and defaults expand). */
type RawCase = Record<string, unknown> & { id?: unknown; vars?: Record<string, unknown> };

/** The case as its file writes it, when the file has an item with exactly this ID (not an `each:` row). */
function rawCase(def: CaseDef): RawCase | undefined {
  const items = readYaml(def.location.file).data;
  if (!Array.isArray(items)) return undefined;
  return (items as RawCase[]).find((x) => typeof x === 'object' && x !== null && x.id === def.id);
}

/** A short, stable tag of the input, so two counterexamples of one case get two files. */
function tag(value: unknown): string {
  return createHash('sha256').update(yamlPackage().stringify(value)).digest('hex').slice(0, 8);
}

/** The regression case for one failed property case, or why none can be written. */
export function regressionCase(def: CaseDef, result: CaseResult, oracle: ((v: unknown) => unknown) | undefined): { id: string; yaml: string } | { skipped: string } {
  const p = result.property;
  if (!def.property || !p || p.counterexample === undefined) return { skipped: 'only YAML property cases (property: generate) are written as regression cases' };
  const raw = rawCase(def);
  if (!raw) return { skipped: `${def.id} comes from an each: row; write its regression case by hand from the counterexample` };
  const id = `${def.id}-regression-${tag(p.counterexample)}`;
  const { property: _property, id: _id, description, steps, vars, ...rest } = raw;
  const expected = oracle ? oracle(p.counterexample) : undefined;
  // `case` and `oracle` are what a property case's steps read: the exact input and the model's answer.
  // `suite` tells the loader which suite the case extends wherever the file is kept (run --cases)
  const item = {
    id,
    suite: result.suite,
    description: `${typeof description === 'string' ? `${description}: ` : ''}the input that broke it (seed ${p.seed}${p.path ? `, path ${p.path}` : ''})`,
    ...rest,
    vars: { ...(vars ?? {}), case: p.counterexample, ...(oracle ? { oracle: expected } : {}) },
    steps,
  };
  const header = [
    `# Regression case: ${result.suite}/${def.id} failed for the input below (shrunk from its generator).`,
    `# It holds the exact values, so it fails while the bug is there and passes once it is fixed.`,
    `# Review it and keep it with your project: \`specgate run ... --cases <its folder>\` runs it with the suite.`,
    `# Replay of the original failure: ${p.replay ?? 'n/a'}`,
  ];
  return { id, yaml: `${header.join('\n')}\n${yamlPackage().stringify([item])}` };
}

/**
 * Checks before anything runs that regression cases could be written under `dir`: it is not, and
 * passes through no, symbolic link, and no file stands where its folder goes. A folder given with
 * `--regressions` must also be one that can be made and written into; the default is made only
 * when a property case fails, so a run from a folder it cannot write to is not refused for it.
 * @throws SpecgateError `SG_USAGE` naming `--regressions` and what to change.
 */
export function checkRegressionsFolder(dir: string, given: boolean): void {
  const what = `--regressions ${dir}`;
  if (given) return checkOutputFolder(what, dir);
  refuseLinks(what, dir);
  nearestFolder(what, dir);
}

/** Options a command that runs the regression cases drops: they select cases or inputs of this run only. */
const NOT_KEPT = ['--case', '--seed', '--path', '--shard', '--shard-timings'];

/**
 * The command that runs the suites again with the regression cases in `dir`: the run's own
 * command line (`argv` as the process got it) without what selected this run's cases and inputs,
 * with `--cases <dir>` added unless it is there already.
 */
export function casesCommand(argv: readonly string[], dir: string): string {
  const kept = withoutOptions(argv.slice(2), NOT_KEPT);
  const cmd = kept[0] === 'run' ? kept : ['run', ...kept.filter((k) => k !== 'run')];
  const given = cmd.some((a, i) => (a === '--cases' && cmd[i + 1] !== undefined && resolve(cmd[i + 1] as string) === resolve(dir)) || (a.startsWith('--cases=') && resolve(a.slice('--cases='.length)) === resolve(dir)));
  return ['specgate', ...cmd, ...(given ? [] : ['--cases', dir])].map(quote).join(' ');
}

/**
 * Writes a regression case for every failed YAML property case of the run into
 * `<dir>/<suite>/<case-id>.yaml`; returns one line per file written or case passed over, and
 * the command that runs them with the suites. Folders are made and files written without
 * following a symbolic link (a link planted in the folder since the check stops the write,
 * SG_USAGE). `caseFiles` are the run's `--cases` files (a failed property case may be one of them).
 */
/** A failed property case whose counterexample makes a regression case (throttling or a broken precondition stopped it half-way: no input to keep). */
function keptAsRegression(c: CaseResult): boolean {
  return c.outcome === 'failed' && c.property?.counterexample !== undefined && c.errorCode !== 'SG_TARGET_THROTTLED' && c.blockedBy === undefined;
}

/** Whether {@link writeRegressionCases} has anything to write for `result` (and so needs the suites' case definitions). */
export function hasRegressionCases(result: RunResult): boolean {
  return result.suites.some((s) => s.cases.some(keptAsRegression));
}

export function writeRegressionCases(modules: SuiteModule[], result: RunResult, dir: string, run: { argv: readonly string[]; caseFiles?: readonly string[]; loaded?: LoadedSuites }): string[] {
  const failed = result.suites.map((s) => ({ suite: s.name, cases: s.cases.filter(keptAsRegression) })).filter((s) => s.cases.length);
  if (!failed.length) return [];
  // the run's own suites when given (run's onLoaded: every case of each, as loaded), else loaded here
  const { registry, suites } = run.loaded ?? loadSuites(modules, failed.map((s) => s.suite), run.caseFiles);
  const lines: string[] = [];
  let written = 0;
  for (const { suite, cases } of failed) {
    const loaded = suites.find((s) => s.name === suite);
    for (const c of cases) {
      const def = loaded?.cases.find((d) => d.id === c.id);
      if (!def) continue;
      const oracleName = def.property?.oracle;
      const oracle = oracleName ? (v: unknown): unknown => registry.oracle(oracleName)(v, { vars: def.vars ?? {} }) : undefined;
      const out = regressionCase(def, c, oracle);
      if ('skipped' in out) {
        lines.push(`no regression case for ${suite}/${c.id}: ${out.skipped}`);
        continue;
      }
      // the same input broke it again: the case is kept already (a --cases file, or the suite's own)
      const kept = loaded?.cases.find((d) => d.id === out.id);
      if (kept) {
        lines.push(`regression case ${out.id} is kept already (${kept.location.file}:${kept.location.line}) and failed again: not written twice`);
        continue;
      }
      const file = join(dir, suite, `${out.id}.yaml`);
      writeFileNoFollow(`--regressions ${dir}`, file, out.yaml);
      written++;
      lines.push(`wrote regression case ${file}: review it and keep it with your project (it fails while the bug is there, on any seed); the case's replay command replays the failure`);
    }
  }
  if (written) lines.push(`run the suite with the regression cases in ${dir} (they fail until the bugs are fixed, then pass, on any seed): ${casesCommand(run.argv, dir)}`);
  return lines;
}
