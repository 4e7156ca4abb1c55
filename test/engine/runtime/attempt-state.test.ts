/**
 * A property case whose runs go side by side (`property.parallel`): each run records its own
 * failures, so the case reports what the runs one after another report.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import { run } from '../../../src/engine/run.js';
import type { CaseResult } from '../../../src/engine/model.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { tempSuite } from '../../helpers/temp-suite.js';

const requirements = '- { id: X-BIG, level: MUST, source: "x.txt#A", text: no big values }\n- { id: X-ODD, level: MUST, source: "x.txt#B", text: odd values seen }\n';
let now = 0;
let most = 0;

function suite(name: string, parallel: string, limit: number): SuiteModule {
  const cases = `- id: values\n  requirements: [X-BIG, X-ODD]\n  property: { generate: ${name}.num, runs: 40${parallel} }\n  steps:\n    - check: ${name}.judge\n      with: { value: "\${case}" }\n`;
  const mod = tempSuite(name, { requirements, cases }, {
    judge: defineCheck<{ value: number }>({
      description: 'fails values over the limit, after a pause that differs by value',
      args: { type: 'object', properties: { value: { type: 'integer' } } },
      judges: ['X-BIG', 'X-ODD'],
      run: async (ctx, { value }) => {
        most = Math.max(most, ++now);
        await new Promise((r) => setTimeout(r, value % 5));
        now--;
        if (value % 2) ctx.observed('X-ODD');
        if (value > limit) ctx.fail({ requirement: 'X-BIG', message: `${value} is over ${limit}` });
        if (value > limit && value % 3 === 0) ctx.fail({ requirement: 'X-ODD', message: `${value} is a big multiple of three` });
      },
    }),
  });
  mod.generators = { num: () => fc.integer({ min: 0, max: 1000 }) };
  return mod;
}

/** A typed check whose own property runs `parallel` at once, observing and failing as `judge` does. */
function typedSuite(name: string, parallel: number, limit: number): SuiteModule {
  const cases = `- id: values\n  requirements: [X-BIG, X-ODD]\n  steps:\n    - check: ${name}.walk\n`;
  return tempSuite(name, { requirements, cases }, {
    walk: defineCheck({
      description: 'a property of its own over integers',
      args: { type: 'object' },
      judges: ['X-BIG', 'X-ODD'],
      run: async (ctx) => {
        await ctx.property(fc.integer({ min: 0, max: 1000 }), async (value) => {
          most = Math.max(most, ++now);
          await new Promise((r) => setTimeout(r, value % 5));
          now--;
          if (value % 2) ctx.observed('X-ODD');
          if (value % 7 === 0) ctx.fail({ requirement: 'X-ODD', message: `${value} is a multiple of seven` });
          return value > limit ? { requirement: 'X-BIG', message: `${value} is over ${limit}` } : undefined;
        }, { runs: 40, parallel });
      },
    }),
  });
}

async function valuesCase(mod: SuiteModule, concurrency = 8): Promise<CaseResult> {
  most = 0;
  const result = await run({ modules: [mod], suites: [mod.name], targets: {}, seed: 77, concurrency });
  const c = result.suites[0]?.cases[0];
  if (!c) throw new Error('no case ran');
  return c;
}

/** What a report says of a property case, but the replay command (it names the suite). */
function verdict(c: CaseResult): unknown {
  const { replay: _, ...property } = c.property ?? {};
  return { outcome: c.outcome, failures: c.failures.map((f) => ({ ...f, property: undefined })), property };
}

describe('property runs side by side in a case', () => {
  // the same module name in both: a case's seed is derived from its suite's name and its ID
  const inTurn = suite('xa', '', 700);
  const sideBySide = suite('xb', ', parallel: 4', 700);
  const passingInTurn = suite('xc', '', 2000);
  const passingSideBySide = suite('xd', ', parallel: 4', 2000);

  it('report the failure, its shrunk value and path the runs in turn report', async () => {
    const a = await valuesCase(inTurn);
    expect(most).toBe(1);
    const b = await valuesCase(sideBySide);
    expect(most).toBe(4);
    expect(a.outcome).toBe('failed');
    // seeds differ by suite name: compare each with the same run made one at a time
    const bInTurn = await valuesCase(sideBySide, 1);
    expect(most).toBe(1);
    expect(verdict(b)).toEqual(verdict(bInTurn));
    // what the runs observed counts up to the failing run and through the shrinking, as in turn
    expect(b.evidence).toEqual(bInTurn.evidence);
    expect(b.failures.every((f) => f.property?.path === b.property?.path)).toBe(true);
  });

  it('in a typed check, counts failures and evidence as the runs in turn do', async () => {
    const typed = typedSuite('xe', 4, 700);
    const a = await valuesCase(typed, 1);
    expect(most).toBe(1);
    const b = await valuesCase(typed);
    expect(most).toBe(4);
    expect(a.outcome).toBe('failed');
    expect(verdict(b)).toEqual(verdict(a));
    expect(b.evidence).toEqual(a.evidence);
  });

  it('counts the same evidence as the runs in turn when every run passes', async () => {
    const a = await valuesCase(passingSideBySide, 1);
    const b = await valuesCase(passingSideBySide);
    expect(most).toBe(4);
    expect([b.outcome, b.evidence]).toEqual([a.outcome, a.evidence]);
    expect(b.evidence?.['X-ODD']).toBeGreaterThan(5);
    const c = await valuesCase(passingInTurn);
    expect(c.outcome).toBe('passed');
  });
});
