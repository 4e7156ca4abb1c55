/**
 * The engine in-process (no CLI): the demo suite against its reference, the event stream the
 * reporters consume, case selection, and a typed check that files a failure under a requirement
 * its case does not name.
 */
import { defineCheck } from '../../src/engine/checks/contract.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/engine/events.js';
import { loadSuites, run, type LoadedSuites } from '../../src/engine/run.js';
import type { LoadedSuite } from '../../src/engine/model.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { suite as demo } from '../fixtures/demo/suite.js';
import { CONFORMANT } from '../e2e/demo-verdicts.js';
import { listenOnLoopback } from '../../src/targets/loopback-server.js';

const statuses = (r: Awaited<ReturnType<typeof run>>): Record<string, string> => Object.fromEntries(r.requirements.map((v) => [v.id, v.status]));

describe('run() on the demo suite against its reference', () => {
  it('gives the conformant statuses and exit code 0, and emits events in order', async () => {
    const events: EngineEvent[] = [];
    const result = await run({ modules: [demo], suites: ['demo'], targets: {}, seed: 11, sinks: [(e) => events.push(e)] });
    expect(statuses(result)).toEqual(CONFORMANT);
    expect(result.summary.exitCode).toBe(0);
    expect(result.seed).toBe(11);

    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run-start');
    expect(types[1]).toBe('suite-start');
    expect(types.at(-2)).toBe('suite-finish');
    expect(types.at(-1)).toBe('run-finish');
    const starts = events.filter((e): e is Extract<EngineEvent, { type: 'case-start' }> => e.type === 'case-start').map((e) => e.caseId);
    const finishes = events.filter((e): e is Extract<EngineEvent, { type: 'case-finish' }> => e.type === 'case-finish').map((e) => e.result.id);
    expect(new Set(starts)).toEqual(new Set(finishes));
    expect(finishes).toHaveLength(10);
    // the time-bound case runs alone, after the others, on the shared virtual clock
    expect(finishes.at(-1)).toBe('token-expiry');
    const at = (type: string, id: string): number =>
      events.findIndex((e) => e.type === type && ((e.type === 'case-start' && e.caseId === id) || (e.type === 'case-finish' && e.result.id === id)));
    for (const id of finishes) expect(at('case-start', id)).toBeLessThan(at('case-finish', id));
  });

  it('runs only the selected cases (bare id or suite/id); the rest of the catalog is not selected, naming --case', async () => {
    const result = await run({ modules: [demo], suites: ['demo'], targets: {}, cases: ['big-id', 'demo/exec-upper'], seed: 1 });
    expect(result.suites[0]?.cases.map((c) => c.id).sort()).toEqual(['big-id', 'exec-upper']);
    const s = statuses(result);
    expect([s['DEMO-BIG-ID'], s['DEMO-EXEC-UPPER'], s['DEMO-HELLO']]).toEqual(['passed', 'passed', 'not-selected']);
    expect(result.requirements.find((r) => r.id === 'DEMO-HELLO')?.reason).toBe("outside this run's selection (--case big-id,demo/exec-upper)");
    expect(Object.values(s)).not.toContain('untested');
    expect(result.suites[0]?.properties['selection']).toBe('--case big-id,demo/exec-upper');
    expect(result.summary.exitCode).toBe(0);
  });
});

describe('a typed check that attributes a failure to a requirement its case does not name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-run-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'cases'));
  writeFileSync(join(dir, 'requirements.yaml'), '- { id: X-ONE, level: MUST, source: "x.txt#A", text: one }\n- { id: X-TWO, level: MUST, source: "x.txt#B", text: two }\n');
  writeFileSync(join(dir, 'cases', 'a.yaml'), '- id: typo\n  requirements: [X-ONE]\n  steps:\n    - check: x.typo\n');
  const module: SuiteModule = {
    name: 'x',
    dir,
    checks: {
      typo: defineCheck({
        description: 'files its failure under the wrong requirement',
        args: { type: 'object' },
        judges: 'case',
        async run(ctx) {
          ctx.fail({ requirement: 'X-TWO', message: 'filed under the wrong requirement' });
        },
      }),
    },
    reference: { start: async () => ({ description: 'nothing', vars: {}, stop: async () => undefined }) },
  };

  it('errors the case instead of losing the failure (the run cannot pass)', async () => {
    const result = await run({ modules: [module], suites: ['x'], targets: {}, seed: 1 });
    const c = result.suites[0]?.cases[0];
    expect(c?.outcome).toBe('errored');
    expect(c?.errorCode).toBe('SG_SUITE_SCHEMA');
    expect(c?.reason).toBe('case typo attributed a failure to X-TWO, which is not one of its requirements (X-ONE); fix the check or list the requirement in the case');
    expect(statuses(result)).toEqual({ 'X-ONE': 'untested', 'X-TWO': 'untested' });
    expect(result.summary.exitCode).toBe(3);
  });
});

describe('a request step whose query holds a list', () => {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-query-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'cases'));
  writeFileSync(join(dir, 'requirements.yaml'), '- { id: Q-LIST, level: MUST, source: "x.txt#A", text: lists }\n');
  writeFileSync(
    join(dir, 'cases', 'a.yaml'),
    ['- id: list', '  requirements: [Q-LIST]', '  steps:', '    - request: { method: GET, url: "${base_url}/echo", query: { "days[]": [1, 7], name: x, none: null } }', '      expect: { status: 200, body: { query: "days%5B%5D=1&days%5B%5D=7&name=x" } }', ''].join('\n'),
  );

  it('repeats the name once per value, as a form does (not the list as JSON text)', async () => {
    const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: new URL(req.url ?? '/', 'http://x').search.slice(1) })));
    const listening = await listenOnLoopback(server);
    try {
      const module: SuiteModule = { name: 'q', dir, reference: { start: async () => ({ description: 'echo', vars: { base_url: listening.url }, stop: async () => undefined }) } };
      const result = await run({ modules: [module], suites: ['q'], targets: {}, seed: 1 });
      expect(result.suites[0]?.cases[0]?.failures).toEqual([]);
      expect(statuses(result)).toEqual({ 'Q-LIST': 'passed' });
    } finally {
      await listening.stop();
    }
  });
});

describe('run() tells the suites it loaded', () => {
  it('once, with every case of each suite whatever the selection, before any event', async () => {
    const told: { cases: number; eventsBefore: number }[] = [];
    const events: EngineEvent[] = [];
    await run({ modules: [demo], suites: ['demo'], cases: ['token-expiry'], targets: {}, seed: 11, sinks: [(e) => events.push(e)], onLoaded: (l) => told.push({ cases: l.suites[0]?.cases.length ?? 0, eventsBefore: events.length }) });
    expect(told).toEqual([{ cases: 10, eventsBefore: 0 }]);
    expect(events.filter((e) => e.type === 'case-finish')).toHaveLength(1);
  });
});

describe('run() with the suites loaded by its caller (loaded)', () => {
  it('runs them as given and does not load them again', async () => {
    const loaded = loadSuites([demo], ['demo']);
    // a module whose folder is gone: a run that loaded it would stop with the loader's error
    const gone = { ...demo, dir: '/nonexistent/specgate-suite' };
    expect(() => loadSuites([gone], ['demo'])).toThrow();
    const told: LoadedSuites[] = [];
    const result = await run({ modules: [gone], suites: ['demo'], cases: ['token-expiry'], targets: {}, seed: 11, loaded, onLoaded: (l) => told.push(l) });
    expect(told).toHaveLength(1);
    expect(told[0]).toBe(loaded);
    expect(result.suites[0]?.cases.map((c) => [c.id, c.outcome])).toEqual([['token-expiry', 'passed']]);
  });

  it('refuses suites other than the ones the run names, before any event', async () => {
    const loaded = loadSuites([demo], ['demo']);
    const events: EngineEvent[] = [];
    const other: SuiteModule = { ...demo, name: 'other' };
    await expect(run({ modules: [demo, other], suites: ['other'], targets: {}, seed: 11, loaded, sinks: [(e) => events.push(e)] })).rejects.toMatchObject({ code: 'SG_INTERNAL', message: expect.stringContaining('the suites given as loaded are demo, but the run names other') });
    await expect(run({ modules: [demo], suites: [], targets: {}, seed: 11, loaded })).rejects.toMatchObject({ code: 'SG_INTERNAL' });
    // the same suites in another order: the run's events and results keep the order it names
    const two = { registry: loaded.registry, suites: [loaded.suites[0] as LoadedSuite, { ...(loaded.suites[0] as LoadedSuite), name: 'other' }] };
    await expect(run({ modules: [demo, other], suites: ['other', 'demo'], targets: {}, seed: 11, loaded: two, sinks: [(e) => events.push(e)] })).rejects.toMatchObject({ code: 'SG_INTERNAL', message: expect.stringContaining('are demo, other, but the run names other, demo') });
    expect(events).toEqual([]);
  });
});
