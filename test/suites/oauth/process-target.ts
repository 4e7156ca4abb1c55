import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** Helpers for tests that run a target as its own process and specgate through its CLI. */

export const ROOT = new URL('../../../', import.meta.url).pathname;

export interface Launched {
  child: ChildProcess;
  vars: Record<string, unknown>;
  profile: string;
  stop(): void;
}

/** Starts `node <script> ...args --profile <tmp>` and waits for its JSON line of variables. */
export async function launch(script: string, args: string[], timeoutMs = 20_000): Promise<Launched> {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-oauth-'));
  const profile = join(dir, 'profile.yaml');
  const child = spawn(process.execPath, [script, ...args, '--profile', profile, '--lifetime', '300'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const vars = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} printed no variables in ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${String(code)}: ${stderr}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as Record<string, unknown>);
    });
  });
  return { child, vars, profile, stop: () => void child.kill('SIGTERM') };
}

export interface CliRun {
  status: number | null;
  stdout: string;
  report: { requirements: Array<{ id: string; status: string; blockedBy?: string[] | null }>; suites: Array<{ cases: Array<{ id: string; outcome: string; reason?: string | null; requirements: string[]; failures: Array<{ requirement: string; message: string; actual?: unknown; exchange?: unknown }> }> }> };
}

/**
 * `specgate run --suite oauth --target <profile>` with a JSON report, from a temporary folder
 * (so that what a run writes beside itself, such as regression cases, stays out of the repository).
 */
export function runCli(profile: string, extra: string[] = []): CliRun {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-oauth-report-'));
  const report = join(dir, 'results.json');
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/specgate.js'), 'run', '--suite-module', join(ROOT, 'dist/suites/oauth/index.js'), '--suite', 'oauth', '--target', profile, '--seed', '7', '--report', `json=${report}`, '--no-color', ...extra], { cwd: dir, encoding: 'utf8', timeout: 240_000 });
  return { status: r.status, stdout: r.stdout, report: JSON.parse(readFileSync(report, 'utf8')) as CliRun['report'] };
}

export function failedIds(run: CliRun): string[] {
  return run.report.requirements.filter((v) => v.status === 'failed').map((v) => v.id).sort();
}
