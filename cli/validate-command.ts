import { basename, resolve } from 'node:path';
import { SpecgateError, SpecgateErrorList } from '../src/errors.js';
import { loadBaseline } from '../src/engine/baseline.js';
import { loadSuite } from '../src/engine/loader/suite-loader.js';
import { schemaErrors } from '../src/engine/loader/schema-check.js';
import { readYaml } from '../src/engine/loader/yaml-source.js';
import { Registry } from '../src/engine/registry.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { loadProfile } from '../src/targets/profile.js';
import { checkTargetConfig } from '../src/engine/loader/target-config.js';
import { loadSuites } from '../src/engine/run.js';
import type { TargetChoice } from '../src/engine/target-setup.js';
import type { TargetSection } from '../src/targets/target-section.js';

/**
 * `specgate validate <files>`: checks suite files, target profiles and baselines without running
 * anything. A file inside a known suite's folder is checked with its whole suite (references to
 * requirements and registered names included).
 */
export function validateCommand(modules: SuiteModule[], files: string[], out: NodeJS.WritableStream = process.stdout): number {
  const registry = new Registry(modules);
  const errors: SpecgateError[] = [];
  for (const file of files) {
    const abs = resolve(file);
    const owner = modules.find((m) => abs.startsWith(resolve(m.dir) + '/'));
    try {
      if (owner) loadSuite(owner, registry);
      else checkStandalone(file, modules);
      out.write(`ok  ${file}\n`);
    } catch (e) {
      if (e instanceof SpecgateErrorList) errors.push(...e.errors);
      else if (e instanceof SpecgateError) errors.push(e);
      else throw e;
    }
  }
  if (errors.length) throw new SpecgateErrorList(errors);
  return 0;
}

function checkStandalone(file: string, modules: SuiteModule[]): void {
  const src = readYaml(file);
  const data = src.data;
  if (data && typeof data === 'object' && !Array.isArray(data) && 'expected-failures' in data) return void loadBaseline(file);
  if (data && typeof data === 'object' && !Array.isArray(data) && 'suites' in data) return checkProfile(file, modules);
  const kind = basename(file) === 'requirements.yaml' ? 'requirements' : basename(file) === 'suite.yaml' ? 'suite' : 'cases';
  const found = schemaErrors(src, kind, 'SG_SUITE_SCHEMA');
  if (found.length) throw new SpecgateErrorList(found);
}

/**
 * A profile is checked as a run of every case of each suite it names would check it before
 * starting: required variables, placeholders left from \`specgate init\`, misspelt names, URL
 * bases, the user agent. Sections naming suites this specgate does not know are checked for
 * their shape only (a --suite-module given to the run may bring them).
 */
function checkProfile(file: string, modules: SuiteModule[]): void {
  const profile = loadProfile(file);
  const known = new Map(modules.map((m) => [m.name, m]));
  const names = Object.keys(profile.suites).filter((n) => known.has(n));
  if (!names.length) return;
  const { registry, suites } = loadSuites(modules, names);
  const targets: Record<string, TargetChoice> = {};
  for (const name of names) {
    const original = profile.suites[name];
    if (!original) continue;
    const section: TargetSection = { ...original };
    const complete = known.get(name)?.completeTarget;
    if (complete) {
      const done = complete({ vars: section.vars, ...(section.exec ? { exec: section.exec } : {}) });
      section.vars = done.vars;
      if (done.exec) section.exec = done.exec;
    }
    targets[name] = { section, label: section.description ?? profile.name ?? file, secrets: [...profile.secrets] };
  }
  const found = checkTargetConfig(suites.map((suite) => ({ suite, cases: suite.cases })), targets, registry, { includeSlow: false });
  if (found.length) throw new SpecgateErrorList(found);
}
