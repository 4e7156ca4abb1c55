/**
 * Regression cases from shrunk counterexamples: when a YAML property case fails, the case is
 * also written with its generator replaced by the exact input that broke it (and the reference
 * model's answer for it), as a file a team reviews and commits into the suite's `cases/` folder.
 * It fails while the bug is there and passes once it is fixed, whatever seed later runs use.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { readYaml } from '../src/engine/loader/yaml-source.js';
import type { CaseDef, CaseResult, RunResult } from '../src/engine/model.js';
import { loadSuites } from '../src/engine/run.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { checkOutputFolder, nearestFolder, refuseLinks, writeFileNoFollow } from '../src/reporting/output-path.js';

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
  return createHash('sha256').update(stringify(value)).digest('hex').slice(0, 8);
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
  const item = {
    id,
    description: `${typeof description === 'string' ? `${description}: ` : ''}the input that broke it (seed ${p.seed}${p.path ? `, path ${p.path}` : ''})`,
    ...rest,
    vars: { ...(vars ?? {}), case: p.counterexample, ...(oracle ? { oracle: expected } : {}) },
    steps,
  };
  const header = [
    `# Regression case: ${result.suite}/${def.id} failed for the input below (shrunk from its generator).`,
    `# It holds the exact values, so it fails while the bug is there and passes once it is fixed.`,
    `# Review it, then commit it into the suite's cases/ folder.`,
    `# Replay of the original failure: ${p.replay ?? 'n/a'}`,
  ];
  return { id, yaml: `${header.join('\n')}\n${stringify([item])}` };
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

/**
 * Writes a regression case for every failed YAML property case of the run into
 * `<dir>/<suite>/<case-id>.yaml`; returns one line per file written or case passed over. Folders
 * are made and files written without following a symbolic link (a link planted in the folder
 * since the check stops the write, SG_USAGE).
 */
export function writeRegressionCases(modules: SuiteModule[], result: RunResult, dir: string): string[] {
  // a failure the target's throttling or a broken precondition stopped half-way is no input to keep
  const kept = (c: CaseResult): boolean => c.outcome === 'failed' && c.property?.counterexample !== undefined && c.errorCode !== 'SG_TARGET_THROTTLED' && c.blockedBy === undefined;
  const failed = result.suites.map((s) => ({ suite: s.name, cases: s.cases.filter(kept) })).filter((s) => s.cases.length);
  if (!failed.length) return [];
  const { registry, suites } = loadSuites(modules, failed.map((s) => s.suite));
  const lines: string[] = [];
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
      const file = join(dir, suite, `${out.id}.yaml`);
      writeFileNoFollow(`--regressions ${dir}`, file, out.yaml);
      lines.push(`wrote regression case ${file}: review it, keep it with your project (it fails while the bug is there, on any seed), and replay the failure with the case's replay command`);
    }
  }
  return lines;
}
