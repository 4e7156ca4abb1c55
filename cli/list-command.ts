import { loadSuites } from '../src/engine/run.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { coverageGaps } from '../src/engine/loader/suite-loader.js';

/** `specgate list`: suites, their requirements (with level and coverage) and cases. */
export function listCommand(modules: SuiteModule[], opts: { suite?: string[]; json?: boolean }, out: NodeJS.WritableStream = process.stdout): number {
  const names = opts.suite?.length ? opts.suite : modules.map((m) => m.name);
  const { suites } = loadSuites(modules, names);
  if (opts.json) {
    out.write(`${JSON.stringify(suites.map((s) => ({ name: s.name, requirements: s.requirements.map(({ location: _l, ...r }) => r), cases: s.cases.map((c) => ({ id: c.id, requirements: c.requirements, description: c.description, tags: c.tags, file: `${c.location.file}:${c.location.line}` })) })), null, 2)}\n`);
    return 0;
  }
  for (const s of suites) {
    const title = modules.find((m) => m.name === s.name)?.title;
    out.write(`${s.name}${title ? ` — ${title}` : ''}: ${s.requirements.length} requirements, ${s.cases.length} cases\n`);
    const byReq = new Map<string, string[]>();
    for (const c of s.cases) for (const r of c.requirements) byReq.set(r, [...(byReq.get(r) ?? []), c.id]);
    out.write('  requirements:\n');
    for (const r of s.requirements) {
      const cover = r.excluded ? `excluded: ${r.excluded}` : (byReq.get(r.id) ?? []).join(', ') || 'NOT COVERED';
      out.write(`    ${r.id} (${r.level}) — ${cover}\n`);
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
