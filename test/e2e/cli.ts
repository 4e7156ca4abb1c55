/**
 * Running the built CLI against the demo suite, the way a user does: `node bin/specgate.js`,
 * reports written to a temp folder, exit code and outputs returned for assertions.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { stringify } from 'yaml';
import { fromRoot } from '../../src/paths.js';
import { parseJsonLossless } from '../../src/targets/body-parse.js';

export const BIN = fromRoot('bin/specgate.js');
export const DEMO_MODULE = fromRoot('dist/test/fixtures/demo/suite.js');
export const FAULT_SERVER = fromRoot('dist/test/fixtures/demo/fault-server.js');
export const UPPER = fromRoot('test/fixtures/demo/upper.mjs');
export const EXEC_FAULT = fromRoot('test/fixtures/demo/exec-fault.mjs');

/** Sources whose compiled form the e2e tests run. */
const SOURCE_DIRS = ['src', 'test/fixtures/demo'];

/**
 * Throws with what to do when dist/ lacks what the e2e tests run (`npm test` builds first).
 * A compiled file older than its source is only warned about: tsc's incremental build does not
 * rewrite an output whose content did not change, so a touched source would be a false alarm.
 */
export function assertBuilt(): void {
  const missing: string[] = [];
  const older: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ts')) {
        const rel = relative(fromRoot(), p);
        const out = fromRoot('dist', rel.replace(/\.ts$/, '.js'));
        if (!existsSync(out)) missing.push(rel);
        else if (statSync(out).mtimeMs < statSync(p).mtimeMs) older.push(rel);
      }
    }
  };
  for (const d of SOURCE_DIRS) walk(fromRoot(d));
  const list = (xs: string[]): string => `${xs.slice(0, 5).join(', ')}${xs.length > 5 ? ` and ${xs.length - 5} more` : ''}`;
  if (missing.length) throw new Error(`dist/ has no compiled form of ${list(missing)}: run \`npm run build\` first (\`npm test\` does it)`);
  if (older.length) console.warn(`[e2e] dist/ may be older than ${list(older)}; run \`npm run build\` if these tests disagree with the sources`);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `specgate <args>` to its end. `env` is added to the current environment. */
export function runCli(args: string[], opts: { cwd: string; env?: Record<string, string> }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...(opts.env ?? {}) };
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A fresh temp folder, removed by the returned function. */
export function tempDir(prefix = 'specgate-e2e-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a target profile (YAML) and returns its path. */
export function writeProfile(dir: string, name: string, profile: unknown): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(profile));
  return file;
}

/** A baseline file of expected failures in `dir`. */
export function writeBaseline(dir: string, name: string, entries: { id: string; reason: string; expires?: string }[]): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `expected-failures:\n${entries.map((e) => `  - { id: "${e.id}", reason: "${e.reason}"${e.expires ? `, expires: "${e.expires}"` : ''} }`).join('\n')}\n`);
  return file;
}

/** The demo section of a profile pointing at an external greeting service. */
export function demoSection(baseUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    vars: { base_url: baseUrl, api_key: 'profile-key-0001' },
    exec: { command: process.execPath, args: [UPPER] },
    ...extra,
  };
}

/** The profile's clock-control hook for the demo fault server. */
export const CLOCK_HOOK = { advance: { method: 'POST', url: '${base_url}/__clock/advance', json: { ms: '${ms}' } } };

/** The JSON report as written (lossless: int64 values stay exact). */
export interface JsonReport {
  seed: number;
  strict: boolean;
  summary: { exitCode: number; verdict: string; cases: Record<string, number>; staleBaseline: unknown[]; expiredBaseline: unknown[] };
  requirements: { id: string; status: string; reason: string | null; stale: boolean; evidence: number | null; blockedBy: string[] | null; failures: { requirement: string; message: string; property?: unknown }[] }[];
  suites: {
    name: string;
    error: { code: string; message: string } | null;
    properties: Record<string, string>;
    cases: {
      id: string;
      outcome: string;
      reason: string | null;
      errorCode: string | null;
      durationMs: number;
      failures: { requirement: string; message: string; expected?: unknown; actual?: unknown; property?: PropertyJson; assertions?: { message: string; expected?: unknown; actual?: unknown }[] }[];
      blockedBy: { requirement: string; message: string } | null;
      blockedFailures: { requirement: string; message: string }[] | null;
      property: PropertyJson | null;
      baseline: string | null;
    }[];
  }[];
}

export interface PropertyJson {
  seed: number;
  runs: number;
  path?: string;
  counterexample?: unknown;
  replay?: string;
}

export function readReport(file: string): JsonReport {
  return parseJsonLossless(readFileSync(file, 'utf8')) as JsonReport;
}

/** requirement ID -> status. */
export function statusMap(report: JsonReport): Record<string, string> {
  return Object.fromEntries(report.requirements.map((r) => [r.id, r.status]));
}

export function caseOf(report: JsonReport, id: string): JsonReport['suites'][number]['cases'][number] {
  const c = report.suites.flatMap((s) => s.cases).find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id} in the report`);
  return c;
}

/**
 * Runs the demo suite with JSON, JUnit and TAP reports into `dir` and returns the parsed JSON
 * report with the paths and the CLI's result.
 */
export async function runDemo(dir: string, args: string[], env?: Record<string, string>): Promise<CliResult & { report: JsonReport | undefined; json: string; junit: string; tap: string }> {
  const json = join(dir, 'results.json');
  const junit = join(dir, 'junit.xml');
  const tap = join(dir, 'results.tap');
  for (const f of [json, junit, tap]) rmSync(f, { force: true });
  const res = await runCli(
    ['run', '--suite-module', DEMO_MODULE, '--suite', 'demo', '--report', `json=${json}`, '--report', `junit=${junit}`, '--report', `tap=${tap}`, ...args],
    { cwd: dir, ...(env ? { env } : {}) },
  );
  return { ...res, report: existsSync(json) ? readReport(json) : undefined, json, junit, tap };
}

/** Everything a demo run printed and wrote, by name: console, stderr, the JSON, JUnit and TAP reports, and the HTML one when asked for. */
export function outputsOf(run: { stdout: string; stderr: string; json: string; junit: string; tap: string }, html?: string): Record<string, string> {
  return {
    console: run.stdout,
    stderr: run.stderr,
    'JSON report': readFileSync(run.json, 'utf8'),
    'JUnit report': readFileSync(run.junit, 'utf8'),
    'TAP report': readFileSync(run.tap, 'utf8'),
    ...(html !== undefined ? { 'HTML report': readFileSync(html, 'utf8') } : {}),
  };
}

/** The run's JSON report, or an error carrying its stderr when it wrote none. */
export function reportOf(run: { report: JsonReport | undefined; stderr: string }): JsonReport {
  if (!run.report) throw new Error(`the run wrote no JSON report: ${run.stderr}`);
  return run.report;
}
