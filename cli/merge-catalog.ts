/**
 * The installed suites are what `merge` judges by, never the reports: a report says what its
 * cases found, but which suite it is, which requirements and cases that suite has, their levels,
 * texts, exclusions and sides, which requirements a case judges and which rules it rests on all
 * come from the catalog. A report that does not fit the catalog is refused, so relabelling a
 * suite, a level or a case's requirements cannot turn a failed run into a conformant one.
 */
import { SpecgateError } from '../src/errors.js';
import type { CaseDef, CaseResult, LoadedSuite, Requirement } from '../src/engine/model.js';
import { loadSuites } from '../src/engine/load-suites.js';
import { caseSide } from '../src/engine/sides.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { someOf } from '../src/targets/declared-vars.js';
import type { ReadReport, ReadSuite } from './results-file.js';

/** What to do about a report that does not fit the catalog. */
const AS_WRITTEN = 'merge the results.json files as the runs wrote them, with the specgate, --suite-module and --cases they ran with';

/**
 * Loads every suite the reports name, completely, as `run` loads it, with the cases of
 * `caseFiles` (the `--cases` folders the runs were given) that name it.
 * @throws SpecgateError `SG_USAGE` for a suite this specgate does not have (a suite kept outside
 *   specgate needs its `--suite-module`), or the loader's errors for a broken suite.
 */
export function installedSuites(reports: readonly ReadReport[], modules: readonly SuiteModule[], caseFiles: readonly string[] = []): Map<string, LoadedSuite> {
  const names: string[] = [];
  for (const r of reports)
    for (const name of [...r.suites.map((s) => s.name), ...Object.keys(r.shard?.selected ?? {})]) {
      if (names.includes(name)) continue;
      if (!modules.some((m) => m.name === name)) {
        throw new SpecgateError('SG_USAGE', `${r.file} holds results of suite "${name}", which this specgate does not have (it has ${modules.map((m) => m.name).join(', ')}): give the --suite-module the run loaded it with`);
      }
      names.push(name);
    }
  const { suites } = loadSuites([...modules], names, caseFiles);
  return new Map(suites.map((s) => [s.name, s]));
}

/**
 * Holds every suite of every report to the installed catalog, then puts the catalog's data in
 * place of the report's: its requirements (levels, texts, exclusions, sides) and, per case, the
 * requirements it judges, the rules it assumes, its description and where it is defined.
 * @returns warnings for requirements the report described otherwise (the catalog decided).
 * @throws SpecgateError `SG_CONFIG` naming the report and the mismatch: other requirements than
 *   the suite's, a case the suite does not have or that judges other requirements, a failure of a
 *   requirement its case does not judge, a case of a side the report says it did not judge, a case
 *   marked not applicable that runs no typed check.
 */
export function applyCatalog(reports: readonly ReadReport[], installed: ReadonlyMap<string, LoadedSuite>): string[] {
  const warnings: string[] = [];
  for (const r of reports) {
    for (const s of r.suites) {
      const suite = installed.get(s.name) as LoadedSuite;
      checkRequirementSet(r.file, s, suite);
      const differing = describedOtherwise(s.catalog, suite.requirements);
      if (differing.length) warnings.push(`${r.file} describes ${differing.length} requirement(s) of suite ${s.name} otherwise than the installed catalog (${someOf(differing, 3, '; ')}): the catalog decides`);
      checkSides(r.file, s, suite);
      const defs = new Map(suite.cases.map((c) => [c.id, c]));
      s.cases = s.cases.map((c) => fromCatalog(r.file, s, c, defs.get(c.id), suite));
      s.catalog = suite.requirements.map((q) => ({ ...q }));
    }
    for (const [name, ids] of Object.entries(r.shard?.selected ?? {})) {
      const known = new Set((installed.get(name) as LoadedSuite).cases.map((c) => c.id));
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length) throw new SpecgateError('SG_CONFIG', `${r.file}: its shard selection names ${unknown.length} case(s) suite ${name} does not have (${someOf(unknown, 3)}): ${AS_WRITTEN}`);
    }
  }
  return warnings;
}

/** The requirements of the report's suite must be the installed suite's, no more and no fewer. */
function checkRequirementSet(file: string, s: ReadSuite, suite: LoadedSuite): void {
  const theirs = new Set(s.catalog.map((q) => q.id));
  const ours = new Set(suite.requirements.map((q) => q.id));
  const extra = [...theirs].filter((id) => !ours.has(id));
  const missing = [...ours].filter((id) => !theirs.has(id));
  if (!extra.length && !missing.length) return;
  const parts = [...(extra.length ? [`lists ${extra.length} requirement(s) suite ${s.name} does not have (${someOf(extra, 3)})`] : []), ...(missing.length ? [`lacks ${missing.length} of its requirements (${someOf(missing, 3)})`] : [])];
  throw new SpecgateError('SG_CONFIG', `${file}: its suite "${s.name}" ${parts.join(' and ')}: these are not results of suite ${s.name} as installed; ${AS_WRITTEN}`);
}

/** `DEMO-HELLO: level MAY (not MUST), another text`: what the report says otherwise of each requirement. */
function describedOtherwise(theirs: readonly Requirement[], ours: readonly Requirement[]): string[] {
  const byId = new Map(theirs.map((q) => [q.id, q]));
  return ours.flatMap((q) => {
    const t = byId.get(q.id);
    if (!t) return [];
    const diffs = [
      ...(t.level !== q.level ? [`level ${t.level} (not ${q.level})`] : []),
      ...(t.text !== q.text ? ['another text'] : []),
      ...(t.source !== q.source ? ['another source'] : []),
      ...(t.side !== q.side ? [`side ${t.side ?? 'none'} (not ${q.side ?? 'none'})`] : []),
      ...((t.excluded !== undefined) !== (q.excluded !== undefined) ? [t.excluded !== undefined ? 'excluded (it is not)' : 'not excluded (it is)'] : []),
    ];
    return diffs.length ? [`${q.id}: ${diffs.join(', ')}`] : [];
  });
}

/** The sides a report says it judged must be sides the suite declares. */
function checkSides(file: string, s: ReadSuite, suite: LoadedSuite): void {
  const declared = Object.keys(suite.sides ?? {});
  const unknown = (s.sides ?? []).filter((x) => !declared.includes(x));
  if (unknown.length) {
    throw new SpecgateError('SG_CONFIG', `${file}: its suite ${s.name} says the run judged the side(s) ${unknown.join(', ')}, which the suite does not have (${declared.length ? declared.join(', ') : 'it has no sides'}): ${AS_WRITTEN}`);
  }
}

/** A case result checked against its definition, with the definition's requirements, assumptions, description and place. */
function fromCatalog(file: string, s: ReadSuite, c: CaseResult, def: CaseDef | undefined, suite: LoadedSuite): CaseResult {
  const key = `${s.name}/${c.id}`;
  if (!def) throw new SpecgateError('SG_CONFIG', `${file}: case ${key} is not a case of the installed suite ${s.name}: ${AS_WRITTEN}`);
  const listed = [...new Set(c.requirements)].sort();
  const judges = [...new Set(def.requirements)].sort();
  if (listed.join(' ') !== judges.join(' ')) {
    throw new SpecgateError('SG_CONFIG', `${file}: case ${key} lists the requirements ${listed.join(', ') || '(none)'}, but the installed suite's case judges ${judges.join(', ')}: ${AS_WRITTEN}`);
  }
  // the engine files a failure only under a requirement of its case (case-run.ts, attributable)
  const stray = [...c.failures, ...(c.blockedFailures ?? [])].find((f) => !def.requirements.includes(f.requirement));
  if (stray) throw new SpecgateError('SG_CONFIG', `${file}: case ${key} holds a failure of ${stray.requirement}, which that case does not judge (it judges ${judges.join(', ')}): ${AS_WRITTEN}`);
  // only a typed check ends a case not applicable (ctx.notApplicable): a case without one never is
  if (c.notApplicable && !def.steps.some((step) => 'check' in step)) {
    throw new SpecgateError('SG_CONFIG', `${file}: case ${key} is marked not applicable, which only a typed check can find, and the installed case runs none: ${AS_WRITTEN}`);
  }
  const side = caseSide(suite, def);
  if (s.sides && side !== undefined && !s.sides.includes(side)) {
    throw new SpecgateError('SG_CONFIG', `${file}: case ${key} judges the ${side} side, but the report says its run judged only ${s.sides.join(', ')}: ${AS_WRITTEN}`);
  }
  const { assumes: _assumes, description: _description, ...rest } = c;
  return {
    ...rest,
    requirements: [...def.requirements],
    ...(def.assumes ? { assumes: [...def.assumes] } : {}),
    ...(def.description !== undefined ? { description: def.description } : {}),
    location: def.location,
  };
}

/**
 * Holds the merged results to every case of each suite they hold. No report can prove which
 * cases its run was asked for (a shard's selection, a `--case` list and the sides judged are
 * written by the run, and can be rewritten with it), so what is judged is decided here, on the
 * command line: results lacking cases are refused unless `allowPartial` accepts them.
 * @returns the notes to print for the suites `allowPartial` let through with cases missing.
 * @throws SpecgateError `SG_USAGE` naming each suite and cases it lacks, without `allowPartial`.
 */
export function checkCoverage(suites: readonly ReadSuite[], installed: ReadonlyMap<string, LoadedSuite>, allowPartial: boolean): string[] {
  const gaps = suites.flatMap((s) => {
    const suite = installed.get(s.name);
    if (!suite) return [];
    const have = new Set(s.cases.map((c) => c.id));
    const missing = suite.cases.filter((c) => !have.has(c.id)).map((c) => c.id);
    const only = [...(s.sides ? [`the ${s.sides.join(', ')} side only`] : []), ...(s.selection ? [`the selection ${s.selection.label}`] : [])];
    return missing.length ? [`the merged results hold ${suite.cases.length - missing.length} of the ${suite.cases.length} cases of suite ${s.name}${only.length ? ` (they judge ${only.join(', ')})` : ''}; not among them: ${someOf(missing, 3)}`] : [];
  });
  if (!gaps.length) return [];
  if (!allowPartial) {
    throw new SpecgateError('SG_USAGE', `${gaps.join('; ')}: merge the results of every shard and side of the run, or give --allow-partial to judge only the cases they hold`);
  }
  const selected = suites.some((s) => s.selection);
  return gaps.map((g) => `${g} (--allow-partial): what only those cases judge is untested, ${selected ? "not applicable for a side not judged, or not selected outside the runs' selection" : 'or not applicable for a side not judged'}`);
}
