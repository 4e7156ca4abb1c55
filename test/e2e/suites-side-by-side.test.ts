/**
 * `specgate run` of two built-in suites against their references: they run side by side, yet
 * the console tells one suite's cases after the other's, and the reports keep the order of
 * `--suite`, with the same verdicts as each suite run alone.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, readReport, runCli, tempDir, type CliResult, type JsonReport } from './cli.js';

const SUITES = ['collation', 'merchant'];

describe('two suites of one run, side by side', () => {
  const tmp = tempDir();
  let together: CliResult;
  let report: JsonReport;
  const alone: Record<string, JsonReport> = {};

  beforeAll(async () => {
    assertBuilt();
    const json = (name: string): string => join(tmp.dir, `${name}.json`);
    [together] = await Promise.all([
      runCli(['run', '--suite', SUITES.join(','), '--seed', '5', '--verbose', '--report', `json=${json('together')}`], { cwd: tmp.dir }),
      ...SUITES.map((s) => runCli(['run', '--suite', s, '--seed', '5', '--report', `json=${json(s)}`], { cwd: tmp.dir })),
    ]);
    report = readReport(json('together'));
    for (const s of SUITES) alone[s] = readReport(json(s));
  }, 120_000);
  afterAll(() => tmp.remove());

  it('keeps the order of --suite in the report, and each suite judges as it does alone', () => {
    expect(together.code, together.stdout).toBe(0);
    expect(report.suites.map((s) => s.name)).toEqual(SUITES);
    const verdicts = (r: JsonReport): string[] => r.requirements.map((v) => `${v.id}:${v.status}`);
    expect(verdicts(report)).toEqual(SUITES.flatMap((s) => verdicts(alone[s] as JsonReport)));
  });

  it('prints each suite whole: its heading, then every one of its case lines, then the next suite', () => {
    const lines = together.stdout.split('\n');
    const heading = (s: string): number => lines.findIndex((l) => l.startsWith(`${s} → `));
    const caseLines = (s: string): number[] => lines.flatMap((l, i) => (/^  \S /.test(l) && l.slice(4).startsWith(`${s}/`) ? [i] : []));
    const [first, second] = SUITES as [string, string];
    const firstCases = caseLines(first);
    const secondCases = caseLines(second);
    expect(firstCases.length).toBe(report.suites[0]?.cases.length);
    expect(secondCases.length).toBe(report.suites[1]?.cases.length);
    expect(heading(first)).toBeLessThan(firstCases[0] as number);
    expect(Math.max(...firstCases)).toBeLessThan(heading(second));
    expect(heading(second)).toBeLessThan(secondCases[0] as number);
  });
});
