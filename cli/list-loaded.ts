import type { LoadedSuite, Selection } from '../src/engine/model.js';
import type { Registry } from '../src/engine/registry.js';
import { loadSuites } from '../src/engine/load-suites.js';
import { keptCaseFiles } from './kept-cases.js';
import { writeTraceListing } from './trace-listing.js';
import { writePassiveListing } from './passive-listing.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { coverageGaps } from '../src/engine/loader/suite-loader.js';
import { describeSides } from '../src/engine/sides.js';
import { casesOfSelection, describeParts } from '../src/engine/selection.js';
import { selectionsOf } from './selection-flags.js';
import { keepListings, stampOf } from './list-cache.js';
import { writeListings, type ListFlags, type SuiteListing } from './suite-listing.js';
import { profileVars } from '../src/engine/loader/target-needs.js';
import { someOf, type DeclaredVar } from '../src/targets/declared-vars.js';

/**
 * A suite's declared target variables, each with whether a target must set it, an example, the
 * cases that read it or need it, and the cases it skips when unset (all derived from the cases;
 * required as `init` marks it and a run of `cases`, every case by default, asks for it).
 */
export function suiteVariables(s: LoadedSuite, registry: Registry, cases: LoadedSuite['cases'] = s.cases): DeclaredVar[] {
  return profileVars(s, registry, cases);
}

/** The third line of a variable in `list --vars`: whether a profile must set it, and what happens without it. */
function requirement(v: DeclaredVar): string {
  const example = v.example !== undefined && !v.secret ? `; e.g. ${JSON.stringify(v.example)}` : '';
  if (v.required) return `required: a target profile must set it${example}`;
  const skips = v.skips.length ? `; unset, it skips ${v.skips.length} case(s): ${someOf(v.skips)}` : '';
  return `optional${example}${skips}`;
}

/** What `list` shows of a loaded suite (of its selection, when the flags select). */
function listingOf(s: LoadedSuite, module: SuiteModule | undefined, selection: Selection | undefined): SuiteListing {
  const requirements = selection ? s.requirements.filter((r) => selection.requirements.includes(r.id)) : s.requirements;
  const cases = casesOfSelection(s.cases, selection);
  const counts = selection
    ? `${requirements.length} of ${s.requirements.length} requirements and ${cases.length} of ${s.cases.length} cases selected (${selection.label}); the other requirements a run reports not selected`
    : `${s.requirements.length} requirements, ${s.cases.length} cases`;
  return {
    name: s.name,
    ...(module?.title !== undefined ? { title: module.title } : {}),
    ...(s.sides ? { sides: s.sides, sidesText: describeSides(s) } : {}),
    ...(s.parts ? { parts: s.parts, partsText: describeParts(s) } : {}),
    ...(selection ? { selection: selection.label } : {}),
    counts,
    requirements: requirements.map(({ location: _l, ...r }) => r),
    cases: cases.map((c) => ({ id: c.id, requirements: c.requirements, description: c.description, tags: c.tags, file: `${c.location.file}:${c.location.line}` })),
    checks: Object.entries(module?.checks ?? {}).map(([name, check]) => ({
      name,
      description: check.description,
      judges: check.judges,
      sets: typeof check.sets === 'function' ? ['(depends on its arguments)'] : (check.sets ?? []),
    })),
    gaps: coverageGaps(s).filter((g) => requirements.some((r) => r.id === g.id)).map((g) => g.id),
  };
}

/**
 * `specgate list`: suites, their parts and sides, their requirements (with level and coverage)
 * and cases, with the cases of `--cases` folders among them; `--vars`: their target variables.
 * `--trace`: every statement of the specification parts each suite judges, with what judges it.
 * `--passive`: the gating requirements a recording (`--target har:`) can settle, per suite.
 * With `--part` / `--requirement`, what a run with the same flags judges: the selected
 * requirements, the cases covering them, and the variables those cases need.
 */
export function listLoaded(modules: SuiteModule[], opts: ListFlags, out: NodeJS.WritableStream = process.stdout, keep?: readonly string[]): number {
  const names = opts.suite?.length ? opts.suite : modules.map((m) => m.name);
  // the stamp of the files before they are read: a file written during the load leaves a listing that is not used
  const stamp = keep && keep.join(',') === modules.map((m) => m.name).join(',') ? stampOf(modules.map((m) => m.dir)) : undefined;
  const { suites, registry } = loadSuites(modules, names, keptCaseFiles(opts.cases));
  const selections = selectionsOf(suites, opts);
  const casesOf = (s: LoadedSuite): LoadedSuite['cases'] => casesOfSelection(s.cases, selections.get(s.name));
  if (opts.trace) {
    writeTraceListing(suites, opts.json === true, out);
    return 0;
  }
  if (opts.passive) {
    writePassiveListing(suites, modules, opts.json === true, out);
    return 0;
  }
  if (opts.vars) {
    if (opts.json) {
      out.write(`${JSON.stringify(suites.map((s) => ({ name: s.name, vars: suiteVariables(s, registry, casesOf(s)) })), null, 2)}\n`);
      return 0;
    }
    for (const s of suites) {
      const vars = suiteVariables(s, registry, casesOf(s));
      out.write(`${s.name}: ${vars.length ? `${vars.length} variables (target profile suites.${s.name}.vars)` : 'declares no variables'}\n`);
      for (const v of vars) {
        const by = [...(v.apiTable ? ['the API table (every operation)'] : []), ...(v.cases.length ? [`${v.cases.length} case(s): ${v.cases.slice(0, 5).join(', ')}${v.cases.length > 5 ? ', ...' : ''}`] : [])];
        const used = by.length ? `read by ${by.join(' and ')}` : 'read by typed checks only (in their code)';
        out.write(`  ${v.name}${v.secret ? ' (secret)' : ''} — ${v.description}\n      ${used}\n      ${requirement(v)}\n`);
      }
    }
    return 0;
  }
  const listings = suites.map((s) => listingOf(s, modules.find((m) => m.name === s.name), selections.get(s.name)));
  writeListings(listings, opts.json === true, out);
  // a complete listing of the built-in suites loaded together is kept for the next one
  if (keep && stamp !== undefined && selections.size === 0) {
    const byName = new Map(listings.map((l) => [l.name, l]));
    const kept = keep.flatMap((n) => byName.get(n) ?? []);
    if (kept.length === keep.length) keepListings(keep, modules.map((m) => m.dir), stamp, kept);
  }
  return 0;
}
