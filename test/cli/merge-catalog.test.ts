import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeMerged } from '../../cli/merge-command.js';
import { applyCatalog, checkCoverage, installedSuites } from '../../cli/merge-catalog.js';
import { mergeSuites } from '../../cli/merge-shards.js';
import type { ReadReport, ReadSuite } from '../../cli/results-file.js';
import { Baseline } from '../../src/engine/baseline.js';
import type { CaseDef, CaseResult, LoadedSuite, Requirement } from '../../src/engine/model.js';
import { gatingOf } from '../../src/engine/verdicts.js';

const at = { file: 'cases.yaml', line: 1, column: 1 };
const requirements: Requirement[] = [
  { id: 'R-SERVE', level: 'MUST', source: 'spec#1', text: 'the server answers', side: 'server' },
  { id: 'R-STYLE', level: 'SHOULD', source: 'spec#2', text: 'the server answers nicely', side: 'server' },
  { id: 'R-CALL', level: 'MUST', source: 'spec#3', text: 'the client calls', side: 'client' },
  { id: 'R-GONE', level: 'MUST', source: 'spec#4', text: 'retired', excluded: 'not observable' },
];
const defs: CaseDef[] = [
  { id: 'serves', requirements: ['R-SERVE'], steps: [], location: at, description: 'it serves', assumes: ['R-STYLE'] },
  { id: 'styles', requirements: ['R-STYLE'], steps: [], location: at },
  { id: 'calls', requirements: ['R-CALL'], steps: [], location: at },
];
const installed = new Map<string, LoadedSuite>([['s', { name: 's', dir: '', requirements, cases: defs, sides: { server: { description: 'a server' }, client: { description: 'a client' } } }]]);

const failed = (id: string, requirement: string): CaseResult => ({ suite: 's', id, requirements: [requirement], outcome: 'failed', failures: [{ requirement, message: 'wrong' }], exchanges: [], durationMs: 1 });
const passed = (id: string, requirement: string): CaseResult => ({ suite: 's', id, requirements: [requirement], outcome: 'passed', failures: [], exchanges: [], durationMs: 1 });

/** A report of the whole suite, as a run writes it: the catalog, and `serves` failing its MUST. */
function report(edit: (s: ReadSuite) => void = () => undefined): ReadReport {
  const suite: ReadSuite = {
    name: 's',
    target: 't',
    durationMs: 3,
    properties: {},
    version: '1',
    catalog: requirements.map((r) => ({ ...r })),
    cases: [failed('serves', 'R-SERVE'), passed('styles', 'R-STYLE'), passed('calls', 'R-CALL')],
  };
  edit(suite);
  return { file: 'r.json', version: '1', startedAt: '2026-01-01T00:00:00Z', durationMs: 3, seed: 1, strict: false, stricter: false, suites: [suite] };
}

/** The merged verdicts and exit code of these reports after the catalog check. */
function judge(reports: ReadReport[]): { exitCode: number; statuses: Record<string, string>; warnings: string[] } {
  const warnings = applyCatalog(reports, installed);
  const run = judgeMerged(reports, mergeSuites(reports), gatingOf(false), new Baseline());
  return { exitCode: run.summary.exitCode, statuses: Object.fromEntries(run.requirements.map((r) => [r.id, r.status])), warnings };
}

describe('applyCatalog', () => {
  it('leaves a report as a run wrote it unchanged in verdict, with no warning', () => {
    expect(judge([report()])).toEqual({ exitCode: 1, statuses: { 'R-SERVE': 'failed', 'R-STYLE': 'passed', 'R-CALL': 'passed', 'R-GONE': 'excluded' }, warnings: [] });
  });

  it('judges by the installed levels, texts and exclusions, whatever the report says of them, and says so', () => {
    const forged = report((s) => {
      s.catalog = s.catalog.map((r) => (r.id === 'R-SERVE' ? { ...r, level: 'MAY', text: 'optional', excluded: 'we say so' } : r));
    });
    const { exitCode, statuses, warnings } = judge([forged]);
    expect(exitCode).toBe(1);
    expect(statuses['R-SERVE']).toBe('failed');
    expect(forged.suites[0]?.catalog.find((r) => r.id === 'R-SERVE')).toMatchObject({ level: 'MUST', text: 'the server answers' });
    expect(warnings).toEqual(['r.json describes 1 requirement(s) of suite s otherwise than the installed catalog (R-SERVE: level MAY (not MUST), another text, excluded (it is not)): the catalog decides']);
  });

  it('refuses a report whose requirements are not the suite\'s: another suite relabelled, or one dropped', () => {
    expect(() => applyCatalog([report((s) => (s.catalog = [...s.catalog, { id: 'P-OTHER', level: 'MUST', source: 'x', text: 'x' }]))], installed)).toThrow(
      /r\.json: its suite "s" lists 1 requirement\(s\) suite s does not have \(P-OTHER\): these are not results of suite s as installed/,
    );
    expect(() => applyCatalog([report((s) => (s.catalog = s.catalog.filter((r) => r.id !== 'R-SERVE')))], installed)).toThrow(/lacks 1 of its requirements \(R-SERVE\)/);
  });

  it('refuses a case the suite does not have, and a case listing other requirements than its definition', () => {
    expect(() => applyCatalog([report((s) => s.cases.push(passed('invented', 'R-SERVE')))], installed)).toThrow(/r\.json: case s\/invented is not a case of the installed suite s/);
    // the failing case moved under the SHOULD requirement, where it would not gate
    const moved = report((s) => (s.cases[0] = failed('serves', 'R-STYLE')));
    expect(() => applyCatalog([moved], installed)).toThrow(/case s\/serves lists the requirements R-STYLE, but the installed suite's case judges R-SERVE/);
  });

  it('refuses a failure filed under a requirement its case does not judge', () => {
    const stray = report((s) => {
      const c = s.cases[0] as CaseResult;
      c.failures = [{ requirement: 'R-STYLE', message: 'wrong' }];
    });
    expect(() => applyCatalog([stray], installed)).toThrow(/case s\/serves holds a failure of R-STYLE, which that case does not judge \(it judges R-SERVE\)/);
  });

  it('refuses a report of one side holding a case of the other: the sides it names would hide that side\'s failures', () => {
    // a server-side failure under a report that says it judged the client side only
    const relabelled = report((s) => (s.sides = ['client']));
    expect(() => applyCatalog([relabelled], installed)).toThrow(/case s\/serves judges the server side, but the report says its run judged only client/);
    expect(() => applyCatalog([report((s) => (s.sides = ['browser']))], installed)).toThrow(/judged the side\(s\) browser, which the suite does not have \(server, client\)/);
  });

  it('takes what a case assumes from its definition: an assumption added to a failing case cannot block its failure', () => {
    // `styles` fails its SHOULD; `serves` assumes R-STYLE in the catalog, so it is blocked by it
    const both = report((s) => (s.cases = [failed('serves', 'R-SERVE'), failed('styles', 'R-STYLE'), passed('calls', 'R-CALL')]));
    expect(judge([both]).statuses['R-SERVE']).toBe('blocked');
    // `calls` assumes nothing: a report saying it assumes R-STYLE does not make its failure blocked
    const added = report((s) => (s.cases = [passed('serves', 'R-SERVE'), failed('styles', 'R-STYLE'), { ...failed('calls', 'R-CALL'), assumes: ['R-STYLE'] }]));
    const { exitCode, statuses } = judge([added]);
    expect(statuses['R-CALL']).toBe('failed');
    expect(exitCode).toBe(1);
  });

  it('refuses a shard selection naming a case the suite does not have', () => {
    const r = { ...report(), shard: { index: 1, total: 1, selected: { s: ['serves', 'styles', 'calls', 'invented'] } } };
    expect(() => applyCatalog([r], installed)).toThrow(/r\.json: its shard selection names 1 case\(s\) suite s does not have \(invented\)/);
  });
});

describe('checkCoverage', () => {
  it('refuses merged results lacking cases of their suite, a part left out or a side relabelled, unless told to judge a part', () => {
    // the failing case left out: what is left passes
    const part = report((s) => (s.cases = [passed('styles', 'R-STYLE'), passed('calls', 'R-CALL')]));
    applyCatalog([part], installed);
    expect(() => checkCoverage(part.suites, installed, false)).toThrow(
      /the merged results hold 2 of the 3 cases of suite s; not among them: serves: merge the results of every shard and side of the run, or give --allow-partial/,
    );
    expect(checkCoverage(part.suites, installed, true)).toEqual([
      'the merged results hold 2 of the 3 cases of suite s; not among them: serves (--allow-partial): what only those cases judge is untested, or not applicable for a side not judged',
    ]);
    // a report saying it judged the client side only, the server cases dropped: the server requirements would be not applicable
    const client = report((s) => {
      s.sides = ['client'];
      s.cases = [passed('calls', 'R-CALL')];
    });
    applyCatalog([client], installed);
    expect(() => checkCoverage(client.suites, installed, false)).toThrow(/hold 1 of the 3 cases of suite s \(they judge the client side only\); not among them: serves, styles/);
    expect(checkCoverage(report().suites, installed, false)).toEqual([]);
  });
});

describe('cases marked not applicable', () => {
  it('refuses the mark on a case that runs no typed check (only ctx.notApplicable sets it)', () => {
    const marked = report((s) => (s.cases[0] = { ...passed('serves', 'R-SERVE'), outcome: 'skipped', notApplicable: true, reason: 'no such mode' }));
    expect(() => applyCatalog([marked], installed)).toThrow(/case s\/serves is marked not applicable, which only a typed check can find, and the installed case runs none/);
    const checked = new Map([...installed].map(([k, v]) => [k, { ...v, cases: v.cases.map((c) => (c.id === 'serves' ? { ...c, steps: [{ check: 's.mode' }] } : c)) }]));
    expect(() => applyCatalog([report((s) => (s.cases[0] = { ...passed('serves', 'R-SERVE'), outcome: 'skipped', notApplicable: true }))], checked)).not.toThrow();
  });
});

describe('installedSuites', () => {
  it('takes the cases of the --cases files the runs were given as cases of the suites they name', () => {
    const root = mkdtempSync(join(tmpdir(), 'specgate-merge-cases-'));
    // the parse cache of these throw-away files stays out of the project's cache folder
    const cache = process.env['SPECGATE_CACHE_DIR'];
    process.env['SPECGATE_CACHE_DIR'] = join(root, '.cache');
    try {
      mkdirSync(join(root, 'k', 'cases'), { recursive: true });
      writeFileSync(join(root, 'k', 'requirements.yaml'), '- id: K-ONE\n  level: MUST\n  source: k.txt#A\n  text: one\n');
      writeFileSync(join(root, 'k', 'cases', 'own.yaml'), '- id: own\n  requirements: [K-ONE]\n  skip: later\n');
      const kept = join(root, 'regression.yaml');
      writeFileSync(kept, '- id: kept-one\n  suite: k\n  requirements: [K-ONE]\n  skip: later\n');
      const r: ReadReport = { ...report(), suites: [{ ...report().suites[0], name: 'k' } as ReadSuite] };
      const modules = [{ name: 'k', dir: join(root, 'k') }];
      expect(installedSuites([r], modules).get('k')?.cases.map((c) => c.id)).toEqual(['own']);
      expect(installedSuites([r], modules, [kept]).get('k')?.cases.map((c) => c.id)).toEqual(['own', 'kept-one']);
    } finally {
      if (cache === undefined) delete process.env['SPECGATE_CACHE_DIR'];
      else process.env['SPECGATE_CACHE_DIR'] = cache;
      rmSync(root, { recursive: true, force: true });
    }
  });
});
