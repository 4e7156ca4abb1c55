/**
 * `specgate init` and `specgate run` agree on what a profile must hold: for every built-in
 * suite, the profile `init` writes, with only what it marks REQUIRED filled in (every optional
 * variable left unset, as init leaves it), passes the checks `run` makes before anything starts;
 * so a variable `init` calls optional is never one the run demands.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { initCommand } from '../../cli/init-command.js';
import { knownSuites } from '../../cli/suites.js';
import { planTargets } from '../../cli/target-choice.js';
import { checkTargetConfig } from '../../src/engine/loader/target-config.js';
import type { LoadedSuite } from '../../src/engine/model.js';
import type { Registry } from '../../src/engine/registry.js';
import { loadSuites } from '../../src/engine/run.js';
import { PLACEHOLDER, declaredVars, secretEnvName } from '../../src/targets/declared-vars.js';
import { builtinSuiteNames } from '../../suites/index.js';
import { tempDir } from '../e2e/cli.js';

const tmp = tempDir('specgate-init-run-');
afterAll(() => tmp.remove());
const modules = await knownSuites();

/** The suite loaded, with the registry a run checks it with. */
function loaded(suite: string): { suite: LoadedSuite; registry: Registry } {
  const { suites, registry } = loadSuites(modules, [suite]);
  const found = suites[0];
  if (!found) throw new Error(`suite ${suite} did not load`);
  return { suite: found, registry };
}

/** What `specgate init <suite>` prints. */
function initText(suite: string): string {
  let text = '';
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  initCommand(modules, suite, {}, out);
  return text;
}

/** A value of the shape a required variable wants: its example, else a URL for URL-ish names, else a word. */
function valueFor(name: string, example: unknown): unknown {
  if (example !== undefined) return example;
  return /url|uri|endpoint/i.test(name) ? `https://${name.replace(/_/g, '-')}.example.test` : `some-${name}`;
}

/** The profile `init` wrote, with each `<fill in>` replaced by a value of the right shape. */
function filledIn(suite: string, text: string): string {
  const { suite: s } = loaded(suite);
  const vars = new Map(declaredVars(s).map((v) => [v.name, v]));
  const doc = parseDocument(text);
  const section = ['suites', suite];
  const fill = (path: (string | number)[], value: unknown): void => {
    if (doc.getIn(path) === PLACEHOLDER) doc.setIn(path, value);
  };
  const varNames = Object.keys((doc.getIn([...section, 'vars']) as { toJSON(): Record<string, unknown> } | undefined)?.toJSON() ?? {});
  for (const name of varNames) fill([...section, 'vars', name], valueFor(name, vars.get(name)?.example));
  const commands = s.cases.some((c) => c.steps.some((step) => 'command' in step));
  fill([...section, 'database', 'url'], commands ? 'mongodb://app:secret@127.0.0.1:27017/scratch' : 'postgres://app:secret@127.0.0.1:5432/scratch');
  expect(JSON.stringify(doc.toJSON()), `${suite}: a value is still the placeholder where the test cannot tell what goes`).not.toContain(PLACEHOLDER);
  return doc.toString();
}

describe('init writes what run asks for, and nothing more is asked', () => {
  it.each(builtinSuiteNames)('%s: the init profile with only its REQUIRED values filled in passes the checks run makes before it starts', (suite) => {
    const file = join(tmp.dir, `${suite}.yaml`);
    writeFileSync(file, filledIn(suite, initText(suite)));
    const { suite: s, registry } = loaded(suite);
    // secrets are read from the environment, as the profile says
    const names = declaredVars(s).filter((v) => v.secret).map((v) => secretEnvName(suite, v.name));
    const before = names.map((n) => process.env[n]);
    for (const n of names) process.env[n] = `secret-${n}`;
    try {
      const plan = planTargets(modules, { suites: [suite], target: file, flags: {} });
      // every case selected, time allowed to pass: the most a run asks of a profile
      const problems = checkTargetConfig([{ suite: s, cases: s.cases }], plan.targets, registry, { includeSlow: true });
      expect(problems.map((p) => p.message)).toEqual([]);
    } finally {
      names.forEach((n, i) => {
        const old = before[i];
        if (old === undefined) delete process.env[n];
        else process.env[n] = old;
      });
    }
  });
});
