import { SpecgateError } from '../src/errors.js';
import type { Step } from '../src/engine/model.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import type { TargetChoice, TargetSection } from '../src/engine/target-setup.js';
import { loadProfile, type SuiteProfile } from '../src/targets/profile.js';

export interface TargetPlan {
  /** Suites to run, in order. */
  suites: string[];
  targets: Record<string, TargetChoice>;
}

/**
 * Decides which suites run and against what: `--suite` picks suites; a profile (`--target`)
 * and suite flags (`--plugin X`) name external targets; a suite with neither runs against its
 * embedded reference. Without `--suite`, a profile or flag limits the run to the suites it names.
 */
export function planTargets(modules: SuiteModule[], opts: { suites?: string[]; target?: string; flags: Record<string, string> }): TargetPlan {
  const known = new Map(modules.map((m) => [m.name, m]));
  for (const s of opts.suites ?? [])
    if (!known.has(s)) throw new SpecgateError('SG_USAGE', `no suite named "${s}"; known suites: ${[...known.keys()].join(', ') || '(none)'} (see \`specgate list\`)`);
  const profile = opts.target ? loadProfile(opts.target) : undefined;
  const targets: Record<string, TargetChoice> = {};
  for (const [name, section] of Object.entries(profile?.suites ?? {})) {
    if (!known.has(name)) throw new SpecgateError('SG_CONFIG', `${opts.target}: the profile names suite "${name}", which does not exist; known suites: ${[...known.keys()].join(', ')}`);
    targets[name] = { section: toSection(section), label: section.description ?? profile?.name ?? opts.target ?? name, secrets: section.secrets };
  }
  for (const [flag, value] of Object.entries(opts.flags)) {
    const owner = modules.find((m) => m.targetOptions?.some((o) => o.flag === flag));
    const option = owner?.targetOptions?.find((o) => o.flag === flag);
    if (!owner || !option) continue;
    const prev = targets[owner.name];
    if (option.layer === 'reference' && !prev?.section) {
      // the reference still runs; the flag only adds what it names (e.g. the client under test)
      targets[owner.name] = {
        section: undefined,
        label: `${prev?.label ?? 'reference'}, --${flag} ${value}`,
        secrets: [],
        referenceVars: { ...(prev?.referenceVars ?? {}), ...option.vars(value) },
      };
      continue;
    }
    const section: TargetSection = { ...(prev?.section ?? {}) };
    section.vars = { ...(section.vars ?? {}), ...option.vars(value) };
    const exec = option.exec?.(value);
    if (exec) section.exec = exec;
    targets[owner.name] = { section, label: prev ? `${prev.label}, --${flag} ${value}` : `--${flag} ${value}`, secrets: prev?.secrets ?? [] };
  }
  for (const [name, choice] of Object.entries(targets)) {
    const complete = known.get(name)?.completeTarget;
    const section = choice.section;
    if (!complete || !section) continue;
    const done = complete({ vars: section.vars ?? {}, ...(section.exec ? { exec: section.exec } : {}) });
    section.vars = done.vars;
    if (done.exec) section.exec = done.exec;
  }
  let suites = opts.suites?.length ? opts.suites : Object.keys(targets).length ? Object.keys(targets) : [...known.keys()];
  suites = [...new Set(suites)];
  if (opts.target && opts.suites?.length) {
    const missing = opts.suites.filter((s) => !targets[s]);
    if (missing.length)
      throw new SpecgateError('SG_CONFIG', `${opts.target} has no section for suite ${missing.join(', ')}: add \`suites: { ${missing[0]}: {...} }\` or drop it from --suite`);
  }
  return { suites, targets };
}

function toSection(p: SuiteProfile): TargetSection {
  const s: TargetSection = { vars: p.vars, headers: p.headerNames };
  if (p.http) s.http = p.http;
  if (p.exec) s.exec = p.exec;
  if (p.clock) s.clock = { advance: p.clock.advance as unknown as NonNullable<TargetSection['clock']>['advance'] };
  if (p.agent) s.agent = p.agent.mode === 'scripted' ? { mode: 'scripted', actions: p.agent.actions as unknown as Record<string, Step[]> } : { mode: 'interactive' };
  return s;
}
