import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SpecgateError, SpecgateErrorList } from '../src/errors.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import type { TargetChoice } from '../src/engine/target-setup.js';
import { loadHar } from '../src/targets/har/load-har.js';
import { readProfile, type ProfileReading } from '../src/targets/profile.js';
import type { TargetSection } from '../src/targets/target-section.js';
import { formatLocation } from '../src/engine/loader/yaml-source.js';
import type { SourceLocation } from '../src/engine/model.js';
import { didYouMean } from './suggest.js';

export interface TargetPlan {
  /** Suites to run, in order. */
  suites: string[];
  targets: Record<string, TargetChoice>;
  /** Target flags given for suites the run does not select (`--suite` left them out): not used. */
  unusedFlags?: { flag: string; suite: string }[];
  /**
   * Problems of the profile (`--target`) that leave the rest of it readable: the run reports them
   * with what its own checks of the targets find, all at once, before anything starts.
   */
  problems: SpecgateError[];
}

/**
 * Decides which suites run and against what: `--suite` picks suites; a profile (`--target`)
 * and suite flags (`--plugin X`) name external targets; a suite with neither runs against its
 * embedded reference. Without `--suite`, a profile or flag limits the run to the suites it names.
 */
export function planTargets(modules: SuiteModule[], opts: { suites?: string[]; target?: string; flags: Record<string, string> }): TargetPlan {
  const known = new Map(modules.map((m) => [m.name, m]));
  for (const s of opts.suites ?? [])
    if (!known.has(s)) throw new SpecgateError('SG_USAGE', `no suite named "${s}"${didYouMean(s, [...known.keys()])}; known suites: ${[...known.keys()].join(', ') || '(none)'} (see \`specgate list\`)`);
  if (opts.target?.startsWith(HAR_PREFIX)) return planRecording(modules, { ...opts, target: opts.target });
  const reading = opts.target ? readProfile(opts.target) : undefined;
  if (reading?.stopped) throw new SpecgateErrorList([...reading.problems.map((p) => p.error), stoppedNote(reading)]);
  const profile = reading?.profile;
  const problems = (reading?.problems ?? []).map((p) => p.error);
  const targets: Record<string, TargetChoice> = {};
  for (const [name, at] of Object.entries(reading?.sections ?? {})) {
    const section = profile?.suites[name];
    if (!known.has(name)) problems.push(unknownSuite(opts.target ?? name, at, name, [...known.keys()]));
    else if (section) targets[name] = { section: { ...section }, label: section.description ?? profile?.name ?? opts.target ?? name, secrets: section.secrets ?? [] };
  }
  // nothing of the profile is left to check against its suites: its problems are all there is to say
  if (problems.length && !Object.keys(targets).length) throw new SpecgateErrorList(problems);
  for (const [flag, value] of Object.entries(opts.flags)) {
    const owner = flagOwner(modules, flag);
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
    const section: TargetSection = { ...(prev?.section ?? { vars: {} }) };
    section.vars = { ...section.vars, ...option.vars(value) };
    const exec = option.exec?.(value);
    if (exec) section.exec = exec;
    targets[owner.name] = { section, label: prev ? `${prev.label}, --${flag} ${value}` : `--${flag} ${value}`, secrets: prev?.secrets ?? [] };
  }
  for (const [name, choice] of Object.entries(targets)) if (choice.section) completeSection(known.get(name), choice.section);
  let suites = opts.suites?.length ? opts.suites : Object.keys(targets).length ? Object.keys(targets) : [...known.keys()];
  suites = [...new Set(suites)];
  if (opts.target && opts.suites?.length) {
    // a section set aside for breaking the schema is reported as that
    const missing = opts.suites.filter((s) => !targets[s] && !(reading && s in reading.sections));
    if (missing.length)
      problems.push(new SpecgateError('SG_CONFIG', `${opts.target} has no section for suite ${missing.join(', ')}: add \`suites: { ${missing[0]}: {...} }\` or drop it from --suite`));
  }
  // not refused: a replay command keeps every flag of the run it came from and names one suite
  const unusedFlags = Object.keys(opts.flags).flatMap((flag) => {
    const owner = flagOwner(modules, flag);
    return owner && !suites.includes(owner.name) ? [{ flag, suite: owner.name }] : [];
  });
  return { suites, targets, ...(unusedFlags.length ? { unusedFlags } : {}), problems };
}

/**
 * A section for a suite specgate does not know: a misspelt name, or a suite whose module the
 * command was not given. Positioned on the section's key.
 */
export function unknownSuite(file: string, at: SourceLocation | undefined, name: string, known: readonly string[]): SpecgateError {
  return new SpecgateError(
    'SG_CONFIG',
    `${at ? formatLocation(at) : file}: suites.${name} names no suite specgate knows${didYouMean(name, known)}; known suites: ${known.join(', ') || '(none)'}; correct the name, or load the suite with --suite-module <file>`,
    { suite: name, ...(at ? { ...at } : {}) },
  );
}

/** The last word on a profile that could not be read to its end. */
export function stoppedNote(reading: Pick<ProfileReading, 'file' | 'stopped'>): SpecgateError {
  return new SpecgateError('SG_CONFIG', `${reading.file}: the profile is checked no further because ${reading.stopped ?? 'it cannot be read'}: fix this first; other problems may follow`, { file: reading.file });
}

/** The suite whose target flag `flag` is. */
function flagOwner(modules: readonly SuiteModule[], flag: string): SuiteModule | undefined {
  return modules.find((m) => m.targetOptions?.some((o) => o.flag === flag));
}

const HAR_PREFIX = 'har:';

/**
 * `--target har:<file>`: judge recorded traffic (HAR 1.2) instead of driving a target. It applies
 * to the suites named with --suite, or else to every suite that describes its HTTP API as data
 * (`api.yaml`): only those can match a recorded exchange to an operation. The file is read and
 * read here, so a file that is not HAR stops the run before anything starts (exit 2); an entry
 * that cannot be read is that entry's problem (left out, reported by each suite's run).
 */
function planRecording(modules: SuiteModule[], opts: { suites?: string[]; target: string; flags: Record<string, string> }): TargetPlan {
  const file = opts.target.slice(HAR_PREFIX.length);
  if (!file) throw new SpecgateError('SG_USAGE', '--target har: needs the recording after the colon, e.g. --target har:traffic.har');
  const flags = Object.keys(opts.flags).filter((f) => modules.some((m) => m.targetOptions?.some((o) => o.flag === f)));
  if (flags.length) throw new SpecgateError('SG_USAGE', `--target ${opts.target} judges recorded traffic and cannot be combined with --${flags[0]}, which names a live target; run them separately`);
  const described = modules.filter((m) => existsSync(join(m.dir, 'api.yaml'))).map((m) => m.name);
  const suites = opts.suites?.length ? [...new Set(opts.suites)] : described;
  if (!suites.length)
    throw new SpecgateError('SG_USAGE', `--target ${opts.target}: no suite describes an HTTP API (api.yaml), so nothing can judge the recording; load one with --suite-module`);
  const recording = loadHar(file);
  const left = recording.problems.filter((p) => p.index !== undefined).length;
  const label = `recording ${file} (${recording.exchanges.length} exchanges${left ? `, ${left} entries left out` : ''})`;
  return { suites, targets: Object.fromEntries(suites.map((name) => [name, { section: undefined, label, secrets: [], recording }])), problems: [] };
}

/** Completes a section in place as its suite does before a run (`SuiteModule.completeTarget`: defaults, derived variables). */
export function completeSection(module: Pick<SuiteModule, 'completeTarget'> | undefined, section: TargetSection): void {
  const complete = module?.completeTarget;
  if (!complete) return;
  const done = complete({ vars: section.vars, ...(section.exec ? { exec: section.exec } : {}) });
  section.vars = done.vars;
  if (done.exec) section.exec = done.exec;
}
