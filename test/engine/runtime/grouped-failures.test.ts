/**
 * One failure per requirement per case: a case that breaks three assertions of one requirement
 * and one of another reports two failures, the first listing its three assertions, in the
 * verdicts and in every report (console, JUnit, TAP, HTML; JSON keeps the list).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseResult, RunResult } from '../../../src/engine/model.js';
import { run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { caseLines } from '../../../src/reporting/console-case.js';
import { renderHtml } from '../../../src/reporting/html.js';
import { renderJUnit } from '../../../src/reporting/junit.js';
import { renderJson } from '../../../src/reporting/json.js';
import { makeStyle } from '../../../src/reporting/style.js';
import { renderTap } from '../../../src/reporting/tap.js';
import { listenOnLoopback } from '../../../src/targets/loopback-server.js';

const REQUIREMENTS = `
- { id: T-SHAPE, level: MUST, source: "t.txt#A", text: "an item has an integer id, a text name and a list of tags" }
- { id: T-STATUS, level: MUST, source: "t.txt#B", text: reading an item answers 200 }
`;

const CASES = `
- id: item
  requirements: [T-SHAPE, T-STATUS]
  steps:
    - request: { method: GET, url: "\${base_url}/item" }
      expect: { requirement: T-SHAPE, body: { id: { $type: integer }, name: { $type: string }, tags: { $type: array } } }
    - request: { method: GET, url: "\${base_url}/item" }
      expect: { requirement: T-STATUS, status: 200 }
`;

describe('a case that breaks three assertions of one requirement and one of another', () => {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-grouped-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'cases'));
  writeFileSync(join(dir, 'requirements.yaml'), REQUIREMENTS);
  writeFileSync(join(dir, 'cases', 'all.yaml'), CASES);
  const module: SuiteModule = {
    name: 't',
    dir,
    reference: {
      start: async () => {
        const server = await listenOnLoopback(
          createServer((_req, res) => {
            res.writeHead(201, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ id: 'seven', name: 5, tags: {} }));
          }),
        );
        return { description: 'a service that gets the item wrong', vars: { base_url: server.url }, stop: () => server.stop() };
      },
    },
  };
  let result: RunResult;
  let c: CaseResult;
  beforeAll(async () => {
    result = await run({ modules: [module], suites: ['t'], targets: {}, seed: 1 });
    c = result.suites[0]?.cases[0] as CaseResult;
  });

  it('keeps exactly two failures, the first listing its three assertions', () => {
    expect(c.failures.map((f) => f.requirement)).toEqual(['T-SHAPE', 'T-STATUS']);
    expect(c.failures[0]?.assertions?.map((a) => a.message)).toEqual(['$.id: expected an integer, got the string "seven"', '$.name: expected a string, got the number 5', '$.tags: expected an array, got {}']);
    expect(c.failures[0]?.message).toMatch(/^3 failed assertions: 1\) \$\.id: expected an integer/);
    expect(c.failures[1]?.assertions).toBeUndefined();
    const verdicts = Object.fromEntries(result.requirements.map((v) => [v.id, v]));
    expect(verdicts['T-SHAPE']).toMatchObject({ status: 'failed' });
    expect(verdicts['T-SHAPE']?.failures).toHaveLength(1);
    expect(verdicts['T-STATUS']?.failures).toHaveLength(1);
    expect(result.summary.exitCode).toBe(1);
  });

  it('prints one entry per requirement in the console, numbering the assertions of the first', () => {
    const lines = caseLines({ st: makeStyle(false), width: 200, verbose: false, requirement: () => undefined }, c) ?? [];
    expect(lines.filter((l) => l.includes('-> T-SHAPE'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('-> T-STATUS'))).toHaveLength(1);
    expect(lines.filter((l) => /^\s+[123]\) \$\.(id|name|tags):/.test(l))).toHaveLength(3);
  });

  it('writes one failure entry per requirement in JUnit, TAP and HTML, and the assertions under it in JSON', () => {
    const junit = renderJUnit(result);
    expect(junit).toContain('failure 1 of 2');
    expect(junit).not.toContain('failure 3 of');
    expect(junit).toContain('3 failed assertions of T-SHAPE in this case:');
    const tap = renderTap(result);
    expect(tap.match(/^\s+- message: ["']?\$\.(id|name|tags)/gm)).toHaveLength(3);
    const html = renderHtml(result);
    expect(html.match(/class="failure[^"]*"[^>]*data-requirement="T-SHAPE"/g)).toHaveLength(1);
    expect(html.match(/class="failure[^"]*"[^>]*data-requirement="T-STATUS"/g)).toHaveLength(1);
    const json = JSON.parse(renderJson(result)) as { suites: { cases: { failures: { requirement: string; assertions?: unknown[] }[] }[] }[] };
    const failures = json.suites[0]?.cases[0]?.failures ?? [];
    expect(failures.map((f) => [f.requirement, f.assertions?.length])).toEqual([['T-SHAPE', 3], ['T-STATUS', undefined]]);
  });
});
