import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { argProblems } from '../../../src/engine/checks/args.js';
import type { TypedCheck } from '../../../src/engine/checks/contract.js';
import { loadSuite } from '../../../src/engine/loader/suite-loader.js';
import { Registry } from '../../../src/engine/registry.js';
import { fromRoot } from '../../../src/paths.js';
import { Rules } from '../../../reference/plugin/model/index.js';
import { FAILED_WRITES_NOTHING_RULE, PLUGIN_FAILURE_RULE } from '../../../suites/plugin/checks/compiler-verdict.js';
import { COMPILER_REQUEST_JUDGES, COMPILER_RUN_JUDGES, COMPILER_TREE_JUDGES, PLUGIN_RESPONSE_JUDGES } from '../../../suites/plugin/checks/judged.js';
import { suite } from '../../../suites/plugin/index.js';

/**
 * The plugin checks' contracts against what the cases ask of them: every `with:` the cases
 * write fits its check's argument schema, every requirement a case lists is judged by one of
 * its steps, and the judge lists name every requirement the model can attribute a failure to.
 */

interface Step { check?: string; with?: Record<string, unknown>; exec?: unknown; expect?: { requirement?: string } }
interface Case { id: string; requirements: string[]; steps?: Step[] }

const dir = fromRoot('suites', 'plugin');
const catalog = new Set((parse(readFileSync(join(dir, 'requirements.yaml'), 'utf8')) as { id: string }[]).map((r) => r.id));
const cases = loadSuite(suite, new Registry([suite]), suite.dir).cases as unknown as Case[];

function typed(name: string): TypedCheck {
  const check = suite.checks?.[name];
  if (!check || typeof check === 'function') throw new TypeError(`plugin.${name} is not declared with defineCheck`);
  return check;
}
const checkNames = Object.keys(suite.checks ?? {});

describe('plugin check contracts', () => {
  it('declares every check with a description, an argument schema and the catalog requirements it judges', () => {
    expect(checkNames.length).toBeGreaterThan(0);
    for (const name of checkNames) {
      const check = typed(name);
      expect(check.description, name).not.toBe('');
      expect(check.args, name).toMatchObject({ type: 'object', additionalProperties: false });
      expect(check.judges, name).not.toBe('case');
      for (const id of check.judges) expect(catalog.has(id), `${name}: ${id}`).toBe(true);
    }
  });

  it('accepts every with: the cases write, and only those', () => {
    let steps = 0;
    for (const c of cases) {
      for (const s of c.steps ?? []) {
        if (!s.check) continue;
        steps++;
        const check = typed(s.check.replace(/^plugin\./, ''));
        expect(argProblems(check, s.with ?? {}, true), `${c.id}: ${s.check}`).toEqual([]);
      }
    }
    expect(steps).toBeGreaterThan(40);
    expect(argProblems(typed('compilerRequest'), { fixtures: 'shop' }, true).map((p) => p.path)).toEqual([['fixtures']]);
    expect(argProblems(typed('fieldOrder'), { fixture: 'nosuch' }, true)).toHaveLength(1);
    expect(argProblems(typed('compilerRun'), {}, true).map((p) => p.message)).toEqual(['missing required argument "generators"']);
    expect(argProblems(typed('compilerRun'), { generators: [{ name: 'g', respone: {} }] }, true)).toHaveLength(1);
    expect(argProblems(typed('compilerRun'), { generators: [{ name: 'g', response: { files: [] } }] }, true)).toHaveLength(1);
    expect(argProblems(typed('generatedRules'), { runs: '${runs}' }, true)).toEqual([]);
    expect(argProblems(typed('generatedRules'), { runs: 'many' }, false)).toHaveLength(1);
  });

  it('judges every requirement of every case that runs checks', () => {
    for (const c of cases) {
      const judged = new Set<string>();
      for (const s of c.steps ?? []) {
        if (s.check) for (const id of typed(s.check.replace(/^plugin\./, '')).judges) judged.add(id);
        else if (s.expect) for (const id of s.expect.requirement ? [s.expect.requirement] : c.requirements) judged.add(id);
      }
      expect(c.requirements.filter((r) => !judged.has(r)), c.id).toEqual([]);
    }
  });

  it('lists every requirement the model, the verdicts and the diagnosis can name', () => {
    const pluginSide = Object.values(Rules).flatMap((r) => ('plugin' in r ? [r.plugin] : []));
    const compilerSide = Object.values(Rules).flatMap((r) => ('compiler' in r ? [r.compiler] : []));
    expect(pluginSide.filter((id) => !(PLUGIN_RESPONSE_JUDGES as readonly string[]).includes(id))).toEqual([]);
    expect([...compilerSide, FAILED_WRITES_NOTHING_RULE].filter((id) => !(COMPILER_TREE_JUDGES as readonly string[]).includes(id))).toEqual([]);
    expect(COMPILER_RUN_JUDGES).toContain(PLUGIN_FAILURE_RULE);
    expect(typed('compilerRequest').judges).toEqual(COMPILER_REQUEST_JUDGES);
  });
});
