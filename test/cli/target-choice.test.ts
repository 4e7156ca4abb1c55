/**
 * The run's plan from a profile with problems: those that leave the rest readable are handed on
 * (the run reports them with its own checks of the targets, all at once); what stops the reading
 * stops the plan, saying other problems may follow.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planTargets } from '../../cli/target-choice.js';
import { SpecgateErrorList } from '../../src/errors.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { tempDir } from '../e2e/cli.js';

const tmp = tempDir('specgate-target-choice-');
afterAll(() => tmp.remove());
const modules: SuiteModule[] = [{ name: 'oauth', dir: '/nowhere' }, { name: 'plugin', dir: '/nowhere' }];

function write(name: string, lines: string[]): string {
  const file = join(tmp.dir, `${name}.yaml`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function thrown(fn: () => unknown): SpecgateErrorList {
  try {
    fn();
  } catch (e) {
    if (e instanceof SpecgateErrorList) return e;
    throw e;
  }
  throw new Error('expected a list of problems');
}

describe('planTargets with a profile that has problems', () => {
  it('hands on the profile problems and the unknown suites, with the sections still readable', () => {
    const file = write('mixed', ['suites:', '  oauth:', '    vars: { client_secret: "${env:SG_UNIT_NEVER_SET}", auth_url: "https://a.test" }', '    http: { timeoutMs: fast }', '  oauht: {}']);
    const plan = planTargets(modules, { target: file, flags: {} });
    expect(plan.suites).toEqual(['oauth']);
    expect(plan.targets.oauth?.section?.vars['auth_url']).toBe('https://a.test');
    expect(plan.problems.map((e) => e.message.replace(`${file}:`, ''))).toEqual([
      '4:24: suites.oauth.http.timeoutMs must be integer, not a string; write a whole number there',
      expect.stringMatching(/^3:28: the environment variable SG_UNIT_NEVER_SET is not set/),
      expect.stringMatching(/^5:3: suites\.oauht names no suite specgate knows \(did you mean "oauth"\?\)/),
    ]);
  });

  it('adds a suite of --suite the profile has no section for', () => {
    const file = write('other', ['suites:', '  oauth: { vars: { auth_url: "https://a.test" } }']);
    const plan = planTargets(modules, { suites: ['oauth', 'plugin'], target: file, flags: {} });
    expect(plan.problems.map((e) => e.message)).toEqual([`${file} has no section for suite plugin: add \`suites: { plugin: {...} }\` or drop it from --suite`]);
  });

  it('stops when nothing of the profile is left for a suite', () => {
    const file = write('unknown', ['suites:', '  oauht: {}']);
    expect(thrown(() => planTargets(modules, { target: file, flags: {} })).errors.map((e) => e.detail?.suite)).toEqual(['oauht']);
  });

  it('stops at YAML that does not parse, saying to fix it first', () => {
    const file = write('syntax', ['suites:', '  oauth: {}', '  oauth: {}']);
    expect(thrown(() => planTargets(modules, { target: file, flags: {} })).errors.map((e) => e.message)).toEqual([
      `${file}:3:3: Map keys must be unique`,
      `${file}: the profile is checked no further because its YAML does not parse: fix this first; other problems may follow`,
    ]);
  });
});
