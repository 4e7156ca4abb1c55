import type { SpecgateError } from '../src/errors.js';
import { checkTargetConfig } from '../src/engine/loader/target-config.js';
import { ambiguousFieldNames } from '../src/engine/loader/target-fields.js';
import type { LoadedSuite } from '../src/engine/model.js';
import { loadSuites } from '../src/engine/load-suites.js';
import { casesOfSides, sectionSideOrigin, unknownSide } from '../src/engine/sides.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import type { TargetChoice } from '../src/engine/target-setup.js';
import { readProfile, type ProfileProblem, type TargetProfile } from '../src/targets/profile.js';
import type { TargetSection } from '../src/targets/target-section.js';
import { casesOfSelection } from '../src/engine/selection.js';
import { sectionSelection } from '../src/engine/section-selection.js';
import { selectionsOf, type SelectionFlags } from './selection-flags.js';
import { completeSection, unknownSuite } from './target-choice.js';

/** Every problem `specgate validate` finds in one target profile. */
export interface ProfileCheck {
  /** Absolute path of the profile. */
  file: string;
  /** In the order found, each with the suite whose section holds it (none: the top level). */
  problems: ProfileProblem[];
  /** The suites the profile has sections for, in the file's order: how the problems are grouped. */
  sections: string[];
  /** What may be right but deserves a look (a `fields:` name the cases send both as JSON and as a form or query key): not problems. */
  warnings?: string[];
  /** Why the check stopped before the end (YAML that does not parse, ...): other problems may follow once it is fixed. */
  stopped?: string;
}

/**
 * Checks a target profile as a run of every case of each suite it names would check it before
 * starting, and collects every problem at once (DESIGN "Targets"): YAML syntax, the profile's
 * schema, unset `${env:NAME}`, a section's own rules (database URL, `secrets:`, page steps),
 * sections for suites specgate does not know, a `side:` the suite lacks, and what the cases need
 * of the target: required variables, placeholders left from `specgate init`, misspelt names,
 * URL bases, the user agent and its actions. Only what stops the reading of the file (it
 * cannot be read, its YAML does not parse, it has no `suites:` mapping) ends the check early.
 * With a selection (`--part`, `--requirement`, else a section's `select:`), what the cases are
 * asked is that of a run of the selection.
 */
export function checkProfile(modules: SuiteModule[], file: string, env: NodeJS.ProcessEnv = process.env, selection: SelectionFlags = {}): ProfileCheck {
  const reading = readProfile(file, env);
  const sections = Object.keys(reading.sections);
  const base = { file: reading.file, sections };
  if (reading.stopped || !reading.profile) return { ...base, problems: reading.problems, stopped: reading.stopped ?? 'the profile cannot be read' };
  const profile = reading.profile;
  const problems = [...reading.problems];
  const warnings: string[] = [];
  const known = new Map(modules.map((m) => [m.name, m]));
  const checked = new Map<string, TargetSection>();
  for (const [name, at] of Object.entries(reading.sections)) {
    const section = profile.suites[name];
    if (!known.has(name)) problems.push({ suite: name, error: unknownSuite(reading.file, at, name, [...known.keys()]) });
    else if (section) checked.set(name, section);
  }
  if (!checked.size) return { ...base, problems };
  const { registry, suites } = loadSuites(modules, [...checked.keys()]);
  const selections = selectionsOf(suites, selection);
  const flagged = Boolean(selection.part?.length || selection.requirement?.length);
  for (const suite of suites) {
    const choice = targetOf(profile, checked.get(suite.name) ?? { vars: {} }, known.get(suite.name));
    const { cases: ofSide, problem } = casesOfSide(suite, choice.section);
    // the command line's selection, else the one the section records (select:)
    const recorded = flagged || !choice.section.select ? undefined : sectionSelection(suite, choice.section.select);
    const cases = casesOfSelection(ofSide, flagged ? selections.get(suite.name) : recorded);
    if (problem) problems.push({ suite: suite.name, error: problem });
    for (const error of checkTargetConfig([{ suite, cases }], { [suite.name]: choice }, registry, { includeSlow: false })) problems.push({ suite: suite.name, error });
    for (const name of ambiguousFieldNames(choice.section, cases))
      warnings.push(`suite ${suite.name}: fields.${name} renames "${name}" to "${choice.section.fieldNames?.[name]}" in JSON bodies and in form fields and query parameters alike, and the cases send it as both: check that the target uses its name in both (fields: renames form and query keys too), or leave ${name} out of fields:`);
  }
  return { ...base, problems, ...(warnings.length ? { warnings } : {}) };
}

/** The target a run would build from the profile's section: completed by the suite, as `specgate run` does. */
function targetOf(profile: TargetProfile, written: TargetSection, module: SuiteModule | undefined): TargetChoice & { section: TargetSection } {
  const section: TargetSection = { ...written };
  completeSection(module, section);
  return { section, label: section.description ?? profile.name ?? profile.file, secrets: [...profile.secrets] };
}

/** The cases a run of the section's `side:` would run, or every case with the problem of a side the suite lacks. */
function casesOfSide(suite: LoadedSuite, section: TargetSection): { cases: LoadedSuite['cases']; problem?: SpecgateError } {
  if (section.side === undefined) return { cases: suite.cases };
  const problem = unknownSide(suite, section.side, sectionSideOrigin(suite.name, section.location));
  if (problem) return { cases: suite.cases, problem };
  return { cases: casesOfSides(suite, suite.cases, [section.side]) };
}
