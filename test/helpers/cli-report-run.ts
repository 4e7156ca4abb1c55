import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult } from '../../src/engine/model.js';
import { SpecgateError } from '../../src/errors.js';
import { runCli, tempDir } from '../e2e/cli.js';

/** One CLI run with its JSON report. */
export interface CliReportRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  report: RunResult;
}

/**
 * Runs `specgate <args> --report json=<file>` in a fresh folder named after `prefix` (removed
 * afterwards, so nothing is written into the project) and reads the report; `env` is added to
 * the environment specgate (and what it starts) runs with. Throws with the output when the run
 * wrote no report.
 */
export async function runCliReport(prefix: string, args: readonly string[], env?: Record<string, string>): Promise<CliReportRun> {
  const tmp = tempDir(prefix);
  try {
    const out = join(tmp.dir, 'report.json');
    const res = await runCli([...args, '--report', `json=${out}`], { cwd: tmp.dir, ...(env ? { env } : {}) });
    if (!existsSync(out)) throw new SpecgateError('SG_INTERNAL', `specgate wrote no report (exit ${String(res.code)}): ${res.stderr || res.stdout}`);
    return { exitCode: res.code, stdout: res.stdout, stderr: res.stderr, report: JSON.parse(readFileSync(out, 'utf8')) as RunResult };
  } finally {
    tmp.remove();
  }
}

/** Requirement ID -> verdict status, for the requirements whose ID starts with `prefix`. */
export function statusesWithPrefix(r: RunResult, prefix: string): Record<string, string> {
  return Object.fromEntries(r.requirements.filter((v) => v.id.startsWith(prefix)).map((v) => [v.id, v.status]));
}

/** The statuses of `ids` when those in `failed` fail and the others pass. */
export function passedBut(ids: readonly string[], failed: readonly string[]): Record<string, string> {
  return Object.fromEntries(ids.map((id) => [id, failed.includes(id) ? 'failed' : 'passed']));
}
