/**
 * The selection a target profile records for a suite (`select:` in its section): what a run with
 * the profile judges when the command line selects nothing. It resolves as `--part` and
 * `--requirement` do (selection.ts); a selection flag, `--case` included, wins for the whole run,
 * and the run says which recorded selections it set aside. Its problems (a part the suite does
 * not declare, a pattern that matches none of its requirements) are the profile's, reported at
 * the key with every other problem of the section.
 */
import { SpecgateError } from '../errors.js';
import type { TargetSection } from '../targets/target-section.js';
import type { LoadedSuite, Selection } from './model.js';
import { nearestNames } from './near-names.js';
import { describeParts, matchesPattern, resolveSelection, type SelectionChoice } from './selection.js';

/** A profile section's `select:`. */
export type SectionSelect = NonNullable<TargetSection['select']>;

/** `the profile's select: parts platform; requirements !EVENTS-PLAT-MODIFIED`: how the run chose, for reasons and report properties. */
export function selectLabel(select: SectionSelect): string {
  const parts = select.parts?.length ? [`part${select.parts.length > 1 ? 's' : ''} ${select.parts.join(', ')}`] : [];
  const patterns = select.requirements?.length ? [`requirement${select.requirements.length > 1 ? 's' : ''} ${select.requirements.join(', ')}`] : [];
  return `the profile's select: ${[...parts, ...patterns].join('; ')}`;
}

/** The selection a section's `select:` makes of its suite (undefined when it selects nothing in particular). */
export function sectionSelection(suite: Pick<LoadedSuite, 'name' | 'requirements' | 'parts'>, select: SectionSelect): Selection | undefined {
  const choice: SelectionChoice = { parts: { [suite.name]: select.parts ?? [] }, ...(select.requirements?.length ? { requirements: select.requirements } : {}) };
  const resolved = resolveSelection(suite, choice);
  return resolved ? { ...resolved, label: selectLabel(select) } : undefined;
}

/**
 * Problems of a section's `select:` (SG_CONFIG): a part its suite does not declare (naming the
 * parts it has, and the nearest), a requirement pattern that matches none of its requirements.
 * @param where the head of each message: the key's place in the profile (`acme.yaml:7:5: `).
 */
export function selectProblems(suite: Pick<LoadedSuite, 'name' | 'requirements' | 'parts'>, select: SectionSelect, where: string): SpecgateError[] {
  const out: SpecgateError[] = [];
  const names = Object.keys(suite.parts ?? {});
  for (const part of select.parts ?? []) {
    if (names.includes(part)) continue;
    const near = nearestNames(part, names, 1)[0];
    const has = names.length ? `; its parts: ${describeParts(suite)}` : ', so there is none to choose; select its requirements with select.requirements instead';
    out.push(new SpecgateError('SG_CONFIG', `${where}suites.${suite.name}.select.parts names "${part}": suite ${suite.name} ${names.length ? `has no part "${part}"` : 'declares no parts'}${near ? ` (did you mean "${near}"?)` : ''}${has}`, { suite: suite.name, part, parts: names }));
  }
  const ids = suite.requirements.map((r) => r.id);
  for (const pattern of select.requirements ?? []) {
    const bare = pattern.startsWith('!') ? pattern.slice(1) : pattern;
    if (ids.some((id) => matchesPattern(bare, id))) continue;
    const near = /[*?]/.test(bare) ? [] : nearestNames(bare, ids, 3);
    out.push(new SpecgateError('SG_CONFIG', `${where}suites.${suite.name}.select.requirements: ${pattern} matches no requirement of suite ${suite.name}${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}; \`specgate list --suite ${suite.name}\` lists its IDs`, { suite: suite.name, pattern }));
  }
  return out;
}

/**
 * Each suite's selection for a run: the command line's when it selects (`--part`,
 * `--requirement`, `--case`), else the `select:` of the suite's profile section. `notes` says
 * which recorded selections the command line set aside, one line per suite.
 */
export function runSelections(
  suites: readonly Pick<LoadedSuite, 'name' | 'requirements' | 'parts'>[],
  asked: SelectionChoice & { cases?: readonly string[] },
  sectionOf: (suite: string) => TargetSection | undefined,
): { selections: Map<string, Selection>; notes: string[] } {
  const flags = [...(Object.keys(asked.parts ?? {}).length ? ['--part'] : []), ...(asked.requirements?.length ? ['--requirement'] : []), ...(asked.cases?.length ? ['--case'] : [])];
  const selections = new Map<string, Selection>();
  const notes: string[] = [];
  for (const suite of suites) {
    const select = sectionOf(suite.name)?.select;
    if (flags.length && select) notes.push(`suite ${suite.name}: ${flags.join(' and ')} on the command line ${flags.length > 1 ? 'choose' : 'chooses'} what this run judges; ${selectLabel(select)} is not used`);
    const selection = flags.length || !select ? resolveSelection(suite, asked) : sectionSelection(suite, select);
    if (selection) selections.set(suite.name, selection);
  }
  return { selections, notes };
}
