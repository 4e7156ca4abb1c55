/**
 * Sides of a protocol and not-applicable verdicts, through the engine in-process: a suite that
 * declares a server and a client side, run whole, run for one side (from `sides`, or from a
 * profile section's `side:`), and a typed check that ends its case with `ctx.notApplicable`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineCheck } from '../../src/engine/checks/contract.js';
import { loadSuites, run } from '../../src/engine/run.js';
import { caseSide, casesOfSides, otherSideReason } from '../../src/engine/sides.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { SpecgateError, SpecgateErrorList } from '../../src/errors.js';

const root = mkdtempSync(join(tmpdir(), 'specgate-sides-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SIDES = 'sides:\n  server: { description: the service }\n  client: { description: an application of the service }\n';

/** Writes a suite folder: suite.yaml, requirements.yaml and one case file. */
function suiteDir(name: string, files: { suite?: string; requirements: string; cases: string }): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'cases'), { recursive: true });
  if (files.suite !== undefined) writeFileSync(join(dir, 'suite.yaml'), files.suite);
  writeFileSync(join(dir, 'requirements.yaml'), files.requirements);
  writeFileSync(join(dir, 'cases', 'a.yaml'), files.cases);
  return dir;
}

/** Which cases ran, so a test can tell that the other side's did not. */
const ran: string[] = [];

const checks = {
  ok: defineCheck({
    description: 'judges nothing and passes',
    args: { type: 'object' },
    judges: 'case',
    async run(ctx) {
      ran.push(ctx.caseId);
    },
  }),
  noMode: defineCheck({
    description: 'finds the target has no such mode',
    args: { type: 'object' },
    judges: 'case',
    async run(ctx) {
      ran.push(ctx.caseId);
      ctx.notApplicable('the target has no device flow');
    },
  }),
  noTool: defineCheck({
    description: 'lacks a tool on this machine',
    args: { type: 'object' },
    judges: 'case',
    async run(ctx) {
      ran.push(ctx.caseId);
      ctx.skip('no browser here');
    },
  }),
};

const two = (dir: string, name = 'two'): SuiteModule => ({
  name,
  dir,
  checks,
  reference: { start: async () => ({ description: 'nothing', vars: {}, stop: async () => undefined }) },
});

const requirements = [
  '- { id: S-ONE, level: MUST, side: server, source: "x.txt#A", text: one }',
  '- { id: S-MODE, level: MUST, side: server, source: "x.txt#B", text: a mode }',
  '- { id: S-BOTH, level: MUST, side: server, source: "x.txt#C", text: a mode and a check }',
  '- { id: S-TOOL, level: SHOULD, side: server, source: "x.txt#D", text: needs a tool }',
  '- { id: C-ONE, level: MUST, side: client, source: "x.txt#E", text: client one }',
  '- { id: C-OUT, level: MUST, side: client, source: "x.txt#F", text: not observable, excluded: not shown in the spec }',
  '',
].join('\n');

const cases = [
  '- { id: server-one, requirements: [S-ONE], steps: [{ check: two.ok }] }',
  '- { id: server-mode, requirements: [S-MODE, S-BOTH], steps: [{ check: two.noMode }] }',
  '- { id: server-both, requirements: [S-BOTH], steps: [{ check: two.ok }] }',
  '- { id: server-tool, requirements: [S-TOOL], steps: [{ check: two.noMode }] }',
  '- { id: server-tool-2, requirements: [S-TOOL], steps: [{ check: two.noTool }] }',
  '- { id: client-one, requirements: [C-ONE], steps: [{ check: two.ok }] }',
  '',
].join('\n');

const module = two(suiteDir('two', { suite: SIDES, requirements, cases }));
const statuses = (r: Awaited<ReturnType<typeof run>>): Record<string, string> => Object.fromEntries(r.requirements.map((v) => [v.id, `${v.status}${v.reason ? `: ${v.reason}` : ''}`]));

describe('ctx.notApplicable', () => {
  it('ends the case skipped and marked not applicable; its requirements are not applicable unless another case judged them', async () => {
    ran.length = 0;
    const result = await run({ modules: [module], suites: ['two'], targets: {}, seed: 1 });
    const mode = result.suites[0]?.cases.find((c) => c.id === 'server-mode');
    expect(mode).toMatchObject({ outcome: 'skipped', notApplicable: true, reason: 'the target has no device flow' });
    expect(statuses(result)).toEqual({
      'S-ONE': 'passed',
      'S-MODE': 'not-applicable: the target has no device flow',
      // server-both judged it
      'S-BOTH': 'passed',
      // server-tool-2 could have judged it, had the machine had the tool
      'S-TOOL': 'untested: skipped: no browser here',
      'C-ONE': 'passed',
      'C-OUT': 'excluded: not shown in the spec',
    });
    expect(result.summary.exitCode).toBe(0);
    expect(result.summary.requirements['not-applicable']).toBe(1);
    expect(result.suites[0]?.sides).toBeUndefined();
  });
});

describe('a run of one side', () => {
  it('runs only that side\'s cases and reports the other side not applicable, naming the side judged', async () => {
    ran.length = 0;
    const result = await run({ modules: [module], suites: ['two'], targets: {}, sides: { two: 'server' }, seed: 1 });
    expect(result.suites[0]?.cases.map((c) => c.id).sort()).toEqual(['server-both', 'server-mode', 'server-one', 'server-tool', 'server-tool-2']);
    expect(ran).not.toContain('client-one');
    const s = statuses(result);
    expect(s['C-ONE']).toBe('not-applicable: this run judges the server side only');
    expect(s['C-OUT']).toBe('excluded: not shown in the spec');
    expect(s['S-ONE']).toBe('passed');
    expect(result.suites[0]?.sides).toEqual(['server']);
    expect(result.suites[0]?.properties['side']).toBe('server');
    expect(result.summary.exitCode).toBe(0);
  });

  it('the client side: the server cases do not run, and every server requirement is not applicable', async () => {
    ran.length = 0;
    const result = await run({ modules: [module], suites: ['two'], targets: {}, sides: { two: 'client' }, seed: 1 });
    expect(ran).toEqual(['client-one']);
    const s = statuses(result);
    for (const id of ['S-ONE', 'S-MODE', 'S-BOTH', 'S-TOOL']) expect(s[id]).toBe('not-applicable: this run judges the client side only');
    expect(s['C-ONE']).toBe('passed');
  });

  it('takes the side from a profile section (`side:`), and --side wins over it', async () => {
    ran.length = 0;
    const section = { vars: {}, side: 'client' };
    const fromProfile = await run({ modules: [module], suites: ['two'], targets: { two: { section, label: 'vendor', secrets: [] } }, seed: 1 });
    expect(fromProfile.suites[0]?.sides).toEqual(['client']);
    expect(ran).toEqual(['client-one']);
    const flagWins = await run({ modules: [module], suites: ['two'], targets: { two: { section, label: 'vendor', secrets: [] } }, sides: { two: 'server' }, seed: 1 });
    expect(flagWins.suites[0]?.sides).toEqual(['server']);
  });

  it('an unknown side stops the run before anything runs (exit 2), with the suite\'s sides listed', async () => {
    ran.length = 0;
    const err = await run({ modules: [module], suites: ['two'], targets: {}, sides: { two: 'servr' }, seed: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecgateErrorList);
    const first = (err as SpecgateErrorList).errors[0];
    expect(first?.code).toBe('SG_USAGE');
    expect(first?.message).toBe('--side servr: suite two has no side "servr" (did you mean "server"?); its sides: server (the service), client (an application of the service)');
    expect(ran).toEqual([]);
  });

  it('a profile side the suite does not declare is a configuration error naming the profile', async () => {
    const section = { vars: {}, side: 'browser', location: { file: 'vendor.yaml', line: 3, column: 5 } };
    const err = await run({ modules: [module], suites: ['two'], targets: { two: { section, label: 'vendor', secrets: [] } }, seed: 1 }).catch((e: unknown) => e);
    const first = (err as SpecgateErrorList).errors[0];
    expect(first?.code).toBe('SG_CONFIG');
    expect(first?.message).toMatch(/^vendor\.yaml:3:5: the target profile's suites\.two\.side: suite two has no side "browser"; its sides: server \(the service\), client/);
  });

  it('a suite without sides refuses a side', async () => {
    const plain = two(suiteDir('plain', { requirements: '- { id: P-ONE, level: MUST, source: "x.txt#A", text: one }\n', cases: '- { id: p, requirements: [P-ONE], steps: [{ check: plain.ok }] }\n' }), 'plain');
    const err = await run({ modules: [plain], suites: ['plain'], targets: {}, sides: { plain: 'server' }, seed: 1 }).catch((e: unknown) => e);
    expect((err as SpecgateErrorList).errors[0]?.message).toMatch(/^--side server: suite plain declares no sides, so there is none to choose/);
  });

  it('a case named with --case that judges the other side is a usage error, not a silent omission', async () => {
    const err = await run({ modules: [module], suites: ['two'], targets: {}, cases: ['client-one'], sides: { two: 'server' }, seed: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecgateError);
    expect((err as SpecgateError).code).toBe('SG_USAGE');
    expect((err as SpecgateError).message).toBe('case two/client-one judges the client side, and this run judges the server side only: drop it from --case or choose its side');
  });
});

describe('side helpers', () => {
  const suite = { requirements: [{ id: 'A', level: 'MUST' as const, source: 's#1', text: 'a', side: 'server' }, { id: 'B', level: 'MUST' as const, source: 's#1', text: 'b', side: 'client' }] };
  it('a case judges the side of its requirements; casesOfSides keeps the chosen side\'s cases, or all', () => {
    expect(caseSide(suite, { requirements: ['B'] })).toBe('client');
    const cs = [{ id: 'a', requirements: ['A'] }, { id: 'b', requirements: ['B'] }];
    expect(casesOfSides(suite, cs, ['server']).map((c) => c.id)).toEqual(['a']);
    expect(casesOfSides(suite, cs, undefined).map((c) => c.id)).toEqual(['a', 'b']);
  });
  it('says which side a run judges', () => {
    expect(otherSideReason(['server'])).toBe('this run judges the server side only');
  });
});

describe('loading a suite with sides', () => {
  const problems = (name: string, files: { suite?: string; requirements: string; cases: string }): string[] => {
    const m = two(suiteDir(name, files), name);
    try {
      loadSuites([m], [name]);
      return [];
    } catch (e) {
      return (e instanceof SpecgateErrorList ? e.errors : [e as SpecgateError]).map((x) => x.message);
    }
  };

  it('loads the sides declared in suite.yaml', () => {
    expect(loadSuites([module], ['two']).suites[0]?.sides).toEqual({ server: { description: 'the service' }, client: { description: 'an application of the service' } });
  });

  it('a requirement without a side, or with an undeclared one, is a load error at its position', () => {
    const found = problems('bad-req', {
      suite: SIDES,
      requirements: '- { id: X-ONE, level: MUST, source: "x.txt#A", text: one }\n- { id: X-TWO, level: MUST, side: sever, source: "x.txt#A", text: two }\n',
      cases: '- { id: a, requirements: [X-ONE], steps: [{ check: bad-req.ok }] }\n',
    });
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/requirements\.yaml:1:3: requirement X-ONE names no side; this suite judges sides server, client \(.*suite\.yaml\), so give it `side:` with one of them$/);
    expect(found[1]).toMatch(/requirements\.yaml:2:3: requirement X-TWO names side "sever" \(did you mean "server"\?\), which .*suite\.yaml does not declare; its sides: server, client$/);
  });

  it('a side in a suite that declares none is a load error', () => {
    const found = problems('undeclared', {
      requirements: '- { id: X-ONE, level: MUST, side: server, source: "x.txt#A", text: one }\n',
      cases: '- { id: a, requirements: [X-ONE], steps: [{ check: undeclared.ok }] }\n',
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/requirement X-ONE names side "server", but .*suite\.yaml declares no sides/);
  });

  it('a case whose requirements bind two sides is a load error: one case judges one side', () => {
    const found = problems('mixed', {
      suite: SIDES,
      requirements: '- { id: X-S, level: MUST, side: server, source: "x.txt#A", text: s }\n- { id: X-C, level: MUST, side: client, source: "x.txt#A", text: c }\n',
      cases: '- { id: both, requirements: [X-S, X-C], steps: [{ check: mixed.ok }] }\n',
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/a\.yaml:1:\d+: case "both" covers requirements of 2 sides: server \(X-S\) and client \(X-C\); a case judges one side, so split it into one case per side$/);
  });

  it('a suite.yaml that declares one side only is a schema error (a side is one of several)', () => {
    const found = problems('one-side', {
      suite: 'sides:\n  server: { description: the service }\n',
      requirements: '- { id: X-ONE, level: MUST, side: server, source: "x.txt#A", text: one }\n',
      cases: '- { id: a, requirements: [X-ONE], steps: [{ check: one-side.ok }] }\n',
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/suite\.yaml:2:3: sides: must NOT have fewer than 2 properties$/);
  });
});
