import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { runCli, type JsonReport } from '../e2e/cli.js';

/** The three numbers a suite's README states in its "Judged from a recording" section. */
export interface RecordingCounts {
  /** Requirements the judged recording of the reference client and server judged (passed or failed). */
  judged: number;
  /** Gating requirements a recording can settle (`specgate list --passive`). */
  settles: number;
  /** Gating requirements of the suite. */
  gating: number;
}

const SENTENCE = /A recording of the reference client and server judges \*\*(\d+)\*\* of the \*\*(\d+)\*\* requirements a recording can settle \(of \*\*(\d+)\*\* gating requirements\)\./g;

/**
 * The counts of suites/<suite>/README.md: the one sentence of the form "A recording of the
 * reference client and server judges **J** of the **K** requirements a recording can settle (of
 * **G** gating requirements)." in its section "Judged from a recording". Throws when the section
 * holds no such sentence, or more than one.
 */
export function readmeRecordingCounts(suite: string): RecordingCounts {
  const readme = readFileSync(fromRoot('suites', suite, 'README.md'), 'utf8');
  const start = readme.indexOf('## Judged from a recording');
  if (start < 0) throw new Error(`suites/${suite}/README.md has no section "Judged from a recording"`);
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  const found = [...section.matchAll(SENTENCE)];
  if (found.length !== 1) throw new Error(`suites/${suite}/README.md, "Judged from a recording": ${found.length} sentences of the recording counts, not one`);
  const [, j, k, g] = found[0] as RegExpMatchArray;
  return { judged: Number(j), settles: Number(k), gating: Number(g) };
}

/** What `specgate list --passive --json` derives for one suite: how many gating requirements it has, and how many a recording can settle. */
export async function listedRecordingScope(dir: string, suite: string): Promise<{ gating: number; settles: number }> {
  const res = await runCli(['list', '--passive', '--json', '--suite', suite], { cwd: dir });
  if (res.code !== 0) throw new Error(`specgate list --passive failed (exit ${res.code}): ${res.stderr}`);
  const listed = (JSON.parse(res.stdout) as { name: string; gating?: number; settles?: number }[]).find((s) => s.name === suite);
  if (listed?.gating === undefined || listed.settles === undefined) throw new Error(`specgate list --passive lists no recording scope of suite ${suite}: ${res.stdout}`);
  return { gating: listed.gating, settles: listed.settles };
}

/** The gating requirements (MUST) a judged run judged: passed or failed. */
export function judgedGating(report: JsonReport): number {
  return (report.requirements as { level?: string; status: string }[]).filter((r) => r.level === 'MUST' && (r.status === 'passed' || r.status === 'failed')).length;
}

/**
 * Asserts the README's counts of `suite` against the judged recording of its reference client
 * and server (`report`) and what `list --passive` derives: J what the run judged, K what a
 * recording can settle, G the gating requirements (which the run's own count agrees with).
 */
export async function expectReadmeRecordingCounts(dir: string, suite: string, report: JsonReport): Promise<void> {
  const readme = readmeRecordingCounts(suite);
  const listed = await listedRecordingScope(dir, suite);
  const judged = judgedGating(report);
  const summary = report.summary as JsonReport['summary'] & { judged: { gating: number; judged: number } };
  expect(summary.judged).toEqual({ gating: listed.gating, judged });
  expect(judged).toBeLessThanOrEqual(listed.settles);
  expect(readme, `suites/${suite}/README.md, "Judged from a recording"`).toEqual({ judged, settles: listed.settles, gating: listed.gating });
}
