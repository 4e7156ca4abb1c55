import type { LoadedSuite } from '../src/engine/model.js';
import type { Registry } from '../src/engine/registry.js';
import { loadSuites } from '../src/engine/run.js';
import { keptCaseFiles } from './kept-cases.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { coverageGaps } from '../src/engine/loader/suite-loader.js';
import { describeSides } from '../src/engine/sides.js';
import { profileVars } from '../src/engine/loader/target-needs.js';
import { someOf, type DeclaredVar } from '../src/targets/declared-vars.js';

/**
 * A suite's declared target variables, each with whether a target must set it, an example, the
 * cases that read it or need it, and the cases it skips when unset (all derived from the cases;
 * required as `init` marks it and a run asks for it).
 */
export function suiteVariables(s: LoadedSuite, registry: Registry): DeclaredVar[] {
  return profileVars(s, registry);
}

/** The third line of a variable in `list --vars`: whether a profile must set it, and what happens without it. */
function requirement(v: DeclaredVar): string {
  const example = v.example !== undefined && !v.secret ? `; e.g. ${JSON.stringify(v.example)}` : '';
  if (v.required) return `required: a target profile must set it${example}`;
  const skips = v.skips.length ? `; unset, it skips ${v.skips.length} case(s): ${someOf(v.skips)}` : '';
  return `optional${example}${skips}`;
}

/**
 * `specgate list`: suites, their requirements (with level and coverage) and cases, with the cases
 * of `--cases` folders among them; `--vars`: their target variables.
 */
export function listCommand(modules: SuiteModule[], opts: { suite?: string[]; json?: boolean; vars?: boolean; cases?: string[] }, out: NodeJS.WritableStream = process.stdout): number {
  const names = opts.suite?.length ? opts.suite : modules.map((m) => m.name);
  const { suites, registry } = loadSuites(modules, names, keptCaseFiles(opts.cases));
  if (opts.vars) {
    if (opts.json) {
      out.write(`${JSON.stringify(suites.map((s) => ({ name: s.name, vars: suiteVariables(s, registry) })), null, 2)}\n`);
      return 0;
    }
    for (const s of suites) {
      const vars = suiteVariables(s, registry);
      out.write(`${s.name}: ${vars.length ? `${vars.length} variables (target profile suites.${s.name}.vars)` : 'declares no variables'}\n`);
      for (const v of vars) {
        const by = [...(v.apiTable ? ['the API table (every operation)'] : []), ...(v.cases.length ? [`${v.cases.length} case(s): ${v.cases.slice(0, 5).join(', ')}${v.cases.length > 5 ? ', ...' : ''}`] : [])];
        const used = by.length ? `read by ${by.join(' and ')}` : 'read by typed checks only (in their code)';
        out.write(`  ${v.name}${v.secret ? ' (secret)' : ''} — ${v.description}\n      ${used}\n      ${requirement(v)}\n`);
      }
    }
    return 0;
  }
  if (opts.json) {
    out.write(`${JSON.stringify(suites.map((s) => ({ name: s.name, ...(s.sides ? { sides: s.sides } : {}), requirements: s.requirements.map(({ location: _l, ...r }) => r), cases: s.cases.map((c) => ({ id: c.id, requirements: c.requirements, description: c.description, tags: c.tags, file: `${c.location.file}:${c.location.line}` })) })), null, 2)}\n`);
    return 0;
  }
  for (const s of suites) {
    const title = modules.find((m) => m.name === s.name)?.title;
    out.write(`${s.name}${title ? ` — ${title}` : ''}: ${s.requirements.length} requirements, ${s.cases.length} cases\n`);
    // what `run --side <name>` accepts for this suite
    if (s.sides) out.write(`  sides (run --side <name>): ${describeSides(s)}\n`);
    const byReq = new Map<string, string[]>();
    for (const c of s.cases)
      for (const r of c.requirements) {
        const ids = byReq.get(r);
        if (ids) ids.push(c.id);
        else byReq.set(r, [c.id]);
      }
    out.write('  requirements:\n');
    for (const r of s.requirements) {
      const cover = r.excluded ? `excluded: ${r.excluded}` : (byReq.get(r.id) ?? []).join(', ') || 'NOT COVERED';
      out.write(`    ${r.id} (${r.level}${r.side !== undefined ? `, ${r.side} side` : ''}) — ${cover}\n`);
    }
    out.write('  cases:\n');
    for (const c of s.cases) out.write(`    ${c.id} [${c.requirements.join(', ')}]${c.tags?.length ? ` {${c.tags.join(', ')}}` : ''}  ${c.location.file}:${c.location.line}\n`);
    const checks = Object.entries(modules.find((m) => m.name === s.name)?.checks ?? {});
    if (checks.length) out.write('  checks:\n');
    for (const [name, check] of checks) {
      const sets = typeof check.sets === 'function' ? ['(depends on its arguments)'] : (check.sets ?? []);
      out.write(`    ${s.name}.${name} — ${check.description}; judges ${check.judges === 'case' ? "the case's requirements" : check.judges.join(', ')}${sets.length ? `; sets ${sets.join(', ')}` : ''}\n`);
    }
    const gaps = coverageGaps(s);
    if (gaps.length) out.write(`  ${gaps.length} requirement(s) have no case and no exclusion: ${gaps.map((g) => g.id).join(', ')}\n`);
  }
  return 0;
}
