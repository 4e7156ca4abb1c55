import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { caseOf, readReport, runCli, type CliResult, type JsonReport } from '../e2e/cli.js';

/** A CLI run of a suite module's suite: what it printed, its JSON report (when it wrote one) and where that report is. */
export interface SuiteModuleRun extends CliResult {
  report: JsonReport | undefined;
  json: string;
}

/**
 * Runs `specgate run --suite-module <module> --suite <suite> <args>` in `dir`, with a JSON
 * report under a fresh name there (so runs sharing the folder keep their own).
 */
export async function runSuiteModule(dir: string, module: string, suite: string, args: readonly string[] = []): Promise<SuiteModuleRun> {
  const json = join(dir, `results-${Math.random().toString(36).slice(2)}.json`);
  const res = await runCli(['run', '--suite-module', module, '--suite', suite, ...args, '--report', `json=${json}`], { cwd: dir });
  return { ...res, report: existsSync(json) ? readReport(json) : undefined, json };
}

/**
 * A copy, under `dir`, of the fixture suite module `test/fixtures/<fixture>` with one case file
 * changed (`from` replaced by `to`), for load errors; returns the copy's module file.
 */
export function editedFixtureModule(dir: string, fixture: string, caseFile: string, from: string, to: string): string {
  const copy = join(dir, `bad-${fixture}`);
  cpSync(fromRoot('test', 'fixtures', fixture), copy, { recursive: true });
  const cases = join(copy, 'suite', 'cases', caseFile);
  const text = readFileSync(cases, 'utf8');
  if (!text.includes(from)) throw new Error(`${caseFile} of test/fixtures/${fixture} no longer holds the text the test changes`);
  writeFileSync(cases, text.replace(from, to));
  return join(copy, 'suite.mjs');
}

/**
 * Asserts that each of the cases errored with SG_TARGET_UNREACHABLE, its reason naming the
 * address and each of `alsoNamed`.
 */
export function expectUnreachable(report: JsonReport, caseIds: readonly string[], address: string, ...alsoNamed: string[]): void {
  for (const id of caseIds) {
    const c = caseOf(report, id);
    expect(c.outcome).toBe('errored');
    expect(c.errorCode).toBe('SG_TARGET_UNREACHABLE');
    expect(c.reason).toContain(address);
    for (const text of alsoNamed) expect(c.reason).toContain(text);
  }
}
