/**
 * Selecting what a run judges by requirement: a suite may declare its parts in `suite.yaml`
 * (`parts:`, each the requirement IDs it holds, written as globs such as `EVENTS-PLAT-*`), and a
 * run may select parts (`--part`) and requirements (`--requirement <ID|glob>`, `!<glob>` to leave
 * some out). A case runs when it covers a selected requirement; a requirement outside the
 * selection that no case of the run covers is reported not selected: never untested, never in
 * the judged fraction, never a gap in coverage. A run of named cases (`--case`) selects what
 * those cases cover, within the parts and requirements it selects.
 */
import { SpecgateError, SpecgateErrorList } from '../errors.js';
import type { CaseDef, LoadedSuite, Requirement, Selection } from './model.js';
import { nearestNames } from './near-names.js';

/** What a run asks to judge: parts per suite, and requirement patterns for every suite. */
export interface SelectionChoice {
  /** Per suite: the names of the parts to judge. */
  parts?: Record<string, string[]>;
  /** Requirement IDs or globs (`*`, `?`); a leading `!` leaves the matches out. */
  requirements?: string[];
}

/** Whether an ID matches a pattern: `*` stands for any run of characters, `?` for one; case matters, as in IDs. */
export function matchesPattern(pattern: string, id: string): boolean {
  let re = compiledPatterns.get(pattern);
  if (!re) {
    const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
    re = new RegExp(`^${source}$`);
    // a suite's parts hold a few dozen patterns, each matched against every requirement at every load
    if (compiledPatterns.size >= MAX_PATTERNS) compiledPatterns.clear();
    compiledPatterns.set(pattern, re);
  }
  return re.test(id);
}

/** Patterns made into regular expressions, by their text. */
const compiledPatterns = new Map<string, RegExp>();
const MAX_PATTERNS = 1000;

/** The requirement IDs of a suite a part holds: those its patterns match, in catalog order. */
export function partRequirements(suite: Pick<LoadedSuite, 'requirements' | 'parts'>, part: string): string[] {
  const patterns = suite.parts?.[part]?.requirements ?? [];
  return suite.requirements.filter((r) => patterns.some((p) => matchesPattern(p, r.id))).map((r) => r.id);
}

/** `monitoring (G. the monitoring API), platform (...)`: a suite's parts for messages. */
export function describeParts(suite: Pick<LoadedSuite, 'parts'>): string {
  return Object.entries(suite.parts ?? {}).map(([name, p]) => `${name} (${p.description})`).join(', ');
}

/**
 * The selection of one suite, or undefined when the run selects everything of it: the parts
 * chosen for it and the patterns that match, minus the `!` patterns (which alone leave out
 * their matches from everything). Unknown parts are the caller's to report ({@link selectionProblems}).
 */
export function resolveSelection(suite: Pick<LoadedSuite, 'name' | 'requirements' | 'parts'>, choice: SelectionChoice): Selection | undefined {
  const parts = choice.parts?.[suite.name] ?? [];
  const patterns = choice.requirements ?? [];
  const take = patterns.filter((p) => !p.startsWith('!'));
  const leave = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  if (!parts.length && !patterns.length) return undefined;
  const inParts = new Set(parts.flatMap((p) => partRequirements(suite, p)));
  const base = parts.length || take.length ? (r: Requirement): boolean => inParts.has(r.id) || take.some((p) => matchesPattern(p, r.id)) : (): boolean => true;
  const ids = suite.requirements.filter((r) => base(r) && !leave.some((p) => matchesPattern(p, r.id))).map((r) => r.id);
  return { label: selectionLabel(parts, patterns), requirements: ids };
}

/** `--part platform --requirement EVENTS-MON-ID-STR`: how the run chose, for reasons and report properties. */
function selectionLabel(parts: readonly string[], patterns: readonly string[]): string {
  return [...parts.map((p) => `--part ${p}`), ...patterns.map((p) => `--requirement ${p}`)].join(' ');
}

/**
 * Problems of a selection over the suites of a run (usage errors, exit 2): a part a suite does
 * not declare (naming the parts it has), and a requirement pattern that matches nothing in any
 * of them.
 */
export function selectionProblems(suites: readonly Pick<LoadedSuite, 'name' | 'requirements' | 'parts'>[], choice: SelectionChoice): SpecgateError[] {
  const out: SpecgateError[] = [];
  for (const suite of suites) {
    const names = Object.keys(suite.parts ?? {});
    for (const part of choice.parts?.[suite.name] ?? []) {
      if (names.includes(part)) continue;
      if (!names.length) {
        out.push(new SpecgateError('SG_USAGE', `--part ${part}: suite ${suite.name} declares no parts, so there is none to choose; select its requirements with --requirement <ID|glob> instead${suites.length > 1 ? ', or name the suite of the part: --part <suite>=<part>' : ''}`, { suite: suite.name, part }));
        continue;
      }
      const near = nearestNames(part, names, 1)[0];
      out.push(new SpecgateError('SG_USAGE', `--part ${part}: suite ${suite.name} has no part "${part}"${near ? ` (did you mean "${near}"?)` : ''}; its parts: ${describeParts(suite)}`, { suite: suite.name, part, parts: names }));
    }
  }
  const ids = suites.flatMap((s) => s.requirements.map((r) => r.id));
  for (const pattern of choice.requirements ?? []) {
    const bare = pattern.startsWith('!') ? pattern.slice(1) : pattern;
    if (ids.some((id) => matchesPattern(bare, id))) continue;
    const near = /[*?]/.test(bare) ? [] : nearestNames(bare, ids, 3);
    const parts = suites.filter((s) => s.parts).map((s) => `${s.name}: ${Object.keys(s.parts ?? {}).join(', ')}`);
    out.push(new SpecgateError(
      'SG_USAGE',
      `--requirement ${pattern} matches no requirement of ${suites.length > 1 ? 'suites' : 'suite'} ${suites.map((s) => s.name).join(', ')}${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}; \`specgate list --suite ${suites.map((s) => s.name).join(',')}\` lists their IDs${parts.length ? `, and --part selects a whole part (${parts.join('; ')})` : ''}`,
      { pattern },
    ));
  }
  return out;
}

/** The cases that cover a selected requirement (all of them when nothing is selected). */
export function casesOfSelection<C extends Pick<CaseDef, 'requirements'>>(cases: readonly C[], selection: Selection | undefined): C[] {
  if (!selection) return [...cases];
  const ids = new Set(selection.requirements);
  return cases.filter((c) => c.requirements.some((id) => ids.has(id)));
}

/**
 * The selection of a run of named cases (`--case`): the requirements the cases that run cover,
 * within `selection` (`--part`, `--requirement`) when the run has one, labelled with both. A
 * requirement only cases left out cover, or no case at all, is then not selected: the run did not
 * set out to judge it.
 * @param wanted the case IDs as the command line gave them (`id` or `suite/id`).
 */
export function caseSelection(suite: Pick<LoadedSuite, 'requirements'>, cases: readonly Pick<CaseDef, 'requirements'>[], selection: Selection | undefined, wanted: readonly string[]): Selection {
  const covered = new Set(cases.flatMap((c) => c.requirements));
  const within = (selection?.requirements ?? suite.requirements.map((r) => r.id)).filter((id) => covered.has(id));
  return { label: [...(selection ? [selection.label] : []), `--case ${wanted.join(',')}`].join(' '), requirements: within };
}

/** Whether `--case` (`wanted`, `id` or `suite/id`) names a case of `suite`. */
function namesCaseOf(suite: Pick<LoadedSuite, 'name' | 'cases'>, wanted: readonly string[]): boolean {
  return suite.cases.some((c) => wanted.includes(c.id) || wanted.includes(`${suite.name}/${c.id}`));
}

/**
 * The suites a run of named cases (`--case`) runs: those with a named case. A suite the run named
 * (`--suite`) with none would judge nothing and read conformant, so it is refused; one the run took
 * by default (every suite, or the profile's) is left out. Without `wanted`, every suite.
 * @throws SpecgateErrorList `SG_USAGE`, one per named suite without a named case.
 */
export function suitesOfNamedCases<S extends Pick<LoadedSuite, 'name' | 'cases'>>(suites: readonly S[], wanted: readonly string[], named: boolean): S[] {
  if (!wanted.length) return [...suites];
  const without = suites.filter((s) => !namesCaseOf(s, wanted));
  if (named && without.length)
    throw new SpecgateErrorList(without.map((s) => new SpecgateError('SG_USAGE', `suite ${s.name} is selected (--suite) but --case ${wanted.join(',')} names none of its cases, so it would judge nothing: drop it from --suite or name one of its cases in --case (\`specgate list --suite ${s.name}\` lists them)`, { suite: s.name })));
  return suites.filter((s) => !without.includes(s));
}

/** The reason a requirement outside the selection carries: "outside this run's selection (--part platform)". */
export function notSelectedReason(selection: Pick<Selection, 'label'>): string {
  return `outside this run's selection (${selection.label})`;
}

/** The `selection` property of a suite result (JUnit testsuite properties) when the run selected requirements. */
export function selectionProperty(selection: Selection | undefined): Record<string, string> {
  return selection ? { selection: selection.label } : {};
}

/**
 * Problems of a suite's parts, found at load: each part's patterns must match requirements of
 * the catalog (a part that holds nothing would select nothing).
 */
export function partProblems(requirements: readonly Requirement[], parts: Record<string, { requirements: string[] }> | undefined, suiteFile: string): SpecgateError[] {
  const out: SpecgateError[] = [];
  for (const [name, part] of Object.entries(parts ?? {}))
    for (const pattern of part.requirements)
      if (!requirements.some((r) => matchesPattern(pattern, r.id)))
        out.push(new SpecgateError('SG_SUITE_SCHEMA', `${suiteFile}: part ${name} names requirements ${JSON.stringify(pattern)}, which matches no requirement of requirements.yaml; fix the ID or glob`, { part: name, pattern }));
  return out;
}
