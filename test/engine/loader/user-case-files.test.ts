/**
 * Case files kept outside a suite's folder (`run --cases`): each case names its suite, is checked
 * as that suite's own (schema, requirement IDs, case IDs) with file:line:column, and runs with
 * the suite's own cases; cases of other suites wait for theirs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sortCaseFiles } from '../../../src/engine/loader/user-case-files.js';
import { loadSuites } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { SpecgateError, SpecgateErrorList } from '../../../src/errors.js';

const root = mkdtempSync(join(tmpdir(), 'specgate-user-cases-'));
beforeAll(() => {
  process.env['SPECGATE_CACHE_DIR'] = join(root, '.cache');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A suite folder with one requirement file and one case file of its own. */
function suite(name: string, prefix: string): SuiteModule {
  const dir = join(root, name);
  mkdirSync(join(dir, 'cases'), { recursive: true });
  writeFileSync(join(dir, 'requirements.yaml'), `- id: ${prefix}-DOUBLE\n  level: MUST\n  source: s.txt#A\n  text: doubles\n- id: ${prefix}-HALF\n  level: MUST\n  source: s.txt#B\n  text: halves\n`);
  writeFileSync(join(dir, 'cases', 'own.yaml'), `- id: own-case\n  requirements: [${prefix}-DOUBLE]\n  steps:\n    - request: { url: "http://x/double" }\n      expect: { status: 200 }\n`);
  return { name, dir };
}

const t = suite('t', 'T');
const u = suite('u', 'U');
const modules = [t, u];

let n = 0;
/** A case file outside every suite; returns its path. */
function kept(text: string): string {
  const file = join(root, 'kept', `f${n++}.yaml`);
  mkdirSync(join(root, 'kept'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const item = (id: string, suiteLine: string, requirement: string): string =>
  `- id: ${id}\n${suiteLine}  requirements: [${requirement}]\n  steps:\n    - request: { url: "http://x/double" }\n      expect: { status: 200 }\n`;

/** Every message of a load that must fail. */
function problems(names: string[], files: string[]): string[] {
  try {
    loadSuites(modules, names, files);
  } catch (e) {
    if (e instanceof SpecgateErrorList) return e.errors.map((x) => `${x.code} ${x.message}`);
    if (e instanceof SpecgateError) return [`${e.code} ${e.message}`];
    throw e;
  }
  throw new Error('the suites loaded, but they should not have');
}

describe('cases kept outside a suite', () => {
  it('load with the suite they name, after its own cases, at their own file and line', () => {
    const file = kept(`${item('kept-double', '  suite: t\n', 'T-DOUBLE')}${item('kept-half', '  suite: u\n', 'U-HALF')}`);
    const { suites } = loadSuites(modules, ['t', 'u'], [file]);
    expect(suites.map((s) => [s.name, s.cases.map((c) => `${c.id}@${c.location.line}`)])).toEqual([
      ['t', ['own-case@1', 'kept-double@1']],
      ['u', ['own-case@1', 'kept-half@7']],
    ]);
    expect(suites[0]?.cases[1]?.location.file).toBe(file);
  });

  it('of a suite the run does not select are left out, not refused', () => {
    const file = kept(item('for-u-only', '  suite: u\n', 'U-HALF'));
    const { suites } = loadSuites(modules, ['t'], [file]);
    expect(suites[0]?.cases.map((c) => c.id)).toEqual(['own-case']);
  });

  it('must name their suite, and a known one (with the names it was probably meant to be)', () => {
    const file = kept(`${item('no-suite', '', 'T-DOUBLE')}${item('typo-suite', '  suite: tee\n', 'T-DOUBLE')}`);
    expect(problems(['t'], [file])).toEqual([
      `SG_SUITE_SCHEMA ${file}:1:3: this case names no suite; a case kept outside a suite's folder says which suite it belongs to: add suite: <name> (t, u)`,
      `SG_SUITE_UNKNOWN ${file}:7:10: no suite "tee" (did you mean "t"?); the suites are t, u`,
    ]);
  });

  it('judge requirements of their suite only: an unknown ID is refused with the nearest ones', () => {
    const file = kept(item('typo-req', '  suite: t\n', 'T-DUBLE'));
    expect(problems(['t'], [file])).toEqual([
      `SG_SUITE_SCHEMA ${file}:3:18: suite t has no requirement "T-DUBLE" (did you mean "T-DOUBLE"?); a case kept outside the suite's folder judges requirements of the suite it names (\`specgate list --suite t\` lists them)`,
    ]);
    // another suite's requirement is as unknown as a typo
    expect(problems(['t'], [kept(item('other-req', '  suite: t\n', 'U-HALF'))])[0]).toMatch(/suite t has no requirement "U-HALF"/);
  });

  it('may not take the ID of a case of the suite: the error names both files', () => {
    const file = kept(item('own-case', '  suite: t\n', 'T-DOUBLE'));
    expect(problems(['t'], [file])).toEqual([`SG_SUITE_SCHEMA ${file}:1:7: case id "own-case" of suite t is already the id of the case at ${join(t.dir, 'cases', 'own.yaml')}:1:3; give this case another id`]);
  });

  it('are checked against the case schema with file:line:column, every file and problem at once', () => {
    const broken = kept('- id: broken\n  suite: t\n  requirements: [T-DOUBLE]\n  stepz: []\n');
    const typo = kept(item('typo-req-2', '  suite: t\n', 'T-HALFF'));
    const all = problems(['t'], [broken, typo]);
    expect(all).toContain(`SG_SUITE_SCHEMA ${broken}:4:3: 0: unknown key "stepz" (not allowed here; check its spelling)`);
    expect(all.some((m) => m.startsWith(`SG_SUITE_SCHEMA ${typo}:3:18: suite t has no requirement "T-HALFF" (did you mean "T-HALF"?)`))).toBe(true);
  });

  it('are sorted once by the suites they name, a file that breaks the schema under none', () => {
    const both = kept(`${item('a-t', '  suite: t\n', 'T-DOUBLE')}${item('a-u', '  suite: u\n', 'U-HALF')}`);
    const broken = kept('- id: [not, a, string]\n  requirements: [T-DOUBLE]\n  skip: later\n');
    const sorted = sortCaseFiles([both, broken], ['t', 'u']);
    expect(Object.fromEntries(sorted.bySuite)).toEqual({ t: [both], u: [both] });
    expect(sorted.problems.map((p) => p.message)).toEqual([`${broken}:1:7: 0.id: must be string`]);
  });
});

describe("a suite's own case file", () => {
  it('may name its own suite, and no other', () => {
    const dir = join(root, 'v');
    mkdirSync(join(dir, 'cases'), { recursive: true });
    writeFileSync(join(dir, 'requirements.yaml'), '- id: V-ONE\n  level: MUST\n  source: s.txt#A\n  text: one\n');
    writeFileSync(join(dir, 'cases', 'a.yaml'), `${item('named-v', '  suite: v\n', 'V-ONE')}${item('named-t', '  suite: t\n', 'V-ONE')}`);
    const v: SuiteModule = { name: 'v', dir };
    try {
      loadSuites([v, t], ['v']);
      throw new Error('loaded');
    } catch (e) {
      expect(e instanceof SpecgateErrorList ? e.errors.map((x) => x.message) : [String(e)]).toEqual([
        `${join(dir, 'cases', 'a.yaml')}:8:10: this file is in the folder of suite v, but the case names suite "t"; move it to that suite, or write suite: v`,
      ]);
    }
  });
});
