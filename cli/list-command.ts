import type { LoadedSuite } from '../src/engine/model.js';
import type { Registry } from '../src/engine/registry.js';
import { loadSuites } from '../src/engine/load-suites.js';
import { keptCaseFiles } from './kept-cases.js';
import { writeTraceListing } from './trace-listing.js';
import { writePassiveListing } from './passive-listing.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { coverageGaps } from '../src/engine/loader/suite-loader.js';
import { describeSides } from '../src/engine/sides.js';
import { casesOfSelection, describeParts } from '../src/engine/selection.js';
import { selectionsOf, type SelectionFlags } from './selection-flags.js';
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

/**
 * `specgate list`: suites, their parts and sides, their requirements (with level and coverage)
 * and cases, with the cases of `--cases` folders among them; `--vars`: their target variables.
 * `--trace`: every statement of the specification parts each suite judges, with what judges it.
 * `--passive`: the gating requirements a recording (`--target har:`) can settle, per suite.
 * With `--part` / `--requirement`, what a run with the same flags judges: the selected
 * requirements, the cases covering them, and the variables those cases need.
 */
export function listCommand(modules: SuiteModule[], opts: { suite?: string[]; json?: boolean; vars?: boolean; trace?: boolean; passive?: boolean; cases?: string[] } & SelectionFlags, out: NodeJS.WritableStream = process.stdout): number {
  const names = opts.suite?.length ? opts.suite : modules.map((m) => m.name);
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
  const requirementsOf = (s: LoadedSuite): LoadedSuite['requirements'] => {
    const selection = selections.get(s.name);
    return selection ? s.requirements.filter((r) => selection.requirements.includes(r.id)) : s.requirements;
  };
  if (opts.json) {
    out.write(`${JSON.stringify(suites.map((s) => {
      const selection = selections.get(s.name);
      return {
        name: s.name,
        ...(s.sides ? { sides: s.sides } : {}),
        ...(s.parts ? { parts: s.parts } : {}),
        ...(selection ? { selection: selection.label } : {}),
        requirements: requirementsOf(s).map(({ location: _l, ...r }) => r),
        cases: casesOf(s).map((c) => ({ id: c.id, requirements: c.requirements, description: c.description, tags: c.tags, file: `${c.location.file}:${c.location.line}` })),
      };
    }), null, 2)}\n`);
    return 0;
  }
  for (const s of suites) {
    const title = modules.find((m) => m.name === s.name)?.title;
    const selection = selections.get(s.name);
    const requirements = requirementsOf(s);
    const cases = casesOf(s);
    const counts = selection
      ? `${requirements.length} of ${s.requirements.length} requirements and ${cases.length} of ${s.cases.length} cases selected (${selection.label}); the other requirements a run reports not selected`
      : `${s.requirements.length} requirements, ${s.cases.length} cases`;
    out.write(`${s.name}${title ? ` — ${title}` : ''}: ${counts}\n`);
    // what `run --side <name>` and `run --part <name>` accept for this suite
    if (s.sides) out.write(`  sides (run --side <name>): ${describeSides(s)}\n`);
    if (s.parts) out.write(`  parts (run --part <name>): ${describeParts(s)}\n`);
    const byReq = new Map<string, string[]>();
    for (const c of cases)
      for (const r of c.requirements) {
        const ids = byReq.get(r);
        if (ids) ids.push(c.id);
        else byReq.set(r, [c.id]);
      }
    out.write('  requirements:\n');
    for (const r of requirements) {
      const cover = r.excluded ? `excluded: ${r.excluded}` : (byReq.get(r.id) ?? []).join(', ') || 'NOT COVERED';
      out.write(`    ${r.id} (${r.level}${r.side !== undefined ? `, ${r.side} side` : ''}) — ${cover}\n`);
    }
    out.write('  cases:\n');
    for (const c of cases) out.write(`    ${c.id} [${c.requirements.join(', ')}]${c.tags?.length ? ` {${c.tags.join(', ')}}` : ''}  ${c.location.file}:${c.location.line}\n`);
    const checks = Object.entries(modules.find((m) => m.name === s.name)?.checks ?? {});
    if (checks.length) out.write('  checks:\n');
    for (const [name, check] of checks) {
      const sets = typeof check.sets === 'function' ? ['(depends on its arguments)'] : (check.sets ?? []);
      out.write(`    ${s.name}.${name} — ${check.description}; judges ${check.judges === 'case' ? "the case's requirements" : check.judges.join(', ')}${sets.length ? `; sets ${sets.join(', ')}` : ''}\n`);
    }
    const gaps = coverageGaps(s).filter((g) => requirements.some((r) => r.id === g.id));
    if (gaps.length) out.write(`  ${gaps.length} requirement(s) have no case and no exclusion: ${gaps.map((g) => g.id).join(', ')}\n`);
  }
  return 0;
}
