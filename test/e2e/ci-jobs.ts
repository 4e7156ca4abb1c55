/**
 * Runs the jobs of a CI file the way its CI system would, on this machine: each job in a folder
 * of its own (a fresh machine), its shell steps through bash with the variables the system sets,
 * and its artifacts handed to later jobs as the system hands them. What cannot run here (the
 * vendor's install and start lines, actions other than the artifact ones) is left to the caller
 * to say: see {@link localize}.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { quote } from '../../cli/replay.js';
import { BIN, DEMO_MODULE, type CliResult } from './cli.js';

/** The outcome of one shell step (a GitHub `run:` or a GitLab job's whole `script:`). */
export interface StepResult extends CliResult {
  label: string;
}

/** A GitHub Actions step, as much of it as the templates use. */
export interface GithubStep {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

export interface GithubJob {
  needs?: string;
  if?: string;
  env?: Record<string, string>;
  strategy?: { matrix: Record<string, unknown[]> };
  steps: GithubStep[];
}

export interface GithubWorkflow {
  env?: Record<string, string>;
  jobs: Record<string, GithubJob>;
}

/** A GitLab job, as much of it as the templates use. */
export interface GitlabJob {
  stage?: string;
  parallel?: number;
  variables?: Record<string, string>;
  needs?: { job: string; artifacts?: boolean }[];
  when?: string;
  script?: string[];
  artifacts?: { when?: string; paths?: string[]; reports?: { junit?: string } };
}

/**
 * Lines the test cannot run as written: installing from the network (`npm ci`, `npm install`
 * of specgate's tarball) and starting the vendor's own server (`npm start`). The test puts the
 * built CLI and a local server in their place.
 */
const VENDOR_LINE = /^\s*npm (ci|install|start)\b/;

/**
 * A script as this machine runs it: the vendor lines dropped and `npx [--no] specgate <command>`
 * replaced by the built CLI. The demo suite the test judges is a fixture, not a built-in suite,
 * so its module is named on every command (the template's options stay as written).
 */
export function localize(script: string): string {
  return script
    .split('\n')
    .filter((line) => !VENDOR_LINE.test(line))
    .join('\n')
    .replace(/npx (?:--no )?specgate (\w+)/g, (_m, command: string) => `${quote(process.execPath)} ${quote(BIN)} ${command} --suite-module ${quote(DEMO_MODULE)}`);
}

/** Runs a script through bash as both CI systems do (`-e`, and `-o pipefail`), with `env` added. */
export function bash(label: string, script: string, cwd: string, env: Record<string, string>): Promise<StepResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-eo', 'pipefail', '-c', script], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ label, code, stdout, stderr }));
  });
}

/** `${{ matrix.x }}` replaced by its value; any other expression is one this test does not know. */
export function expandGithub(text: string, matrix: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_m, expr: string) => {
    const key = /^matrix\.(\w+)$/.exec(expr)?.[1];
    const value = key === undefined ? undefined : matrix[key];
    if (value === undefined) throw new Error(`the workflow uses \${{ ${expr} }}, which this test does not give`);
    return value;
  });
}

/**
 * Runs one GitHub job (one matrix entry) in `machine`: shell steps in order, skipping those after
 * a failure unless they say `if: always()`; `upload-artifact` copies its path into
 * `artifacts/<name>/` (a single file lands at the artifact's root), `download-artifact` with a
 * pattern copies each matching artifact to `<path>/<name>/`, as v4 does without `merge-multiple`.
 */
export async function runGithubJob(
  wf: GithubWorkflow,
  job: GithubJob,
  opts: { machine: string; artifacts: string; matrix: Record<string, string>; env: Record<string, string> },
): Promise<StepResult[]> {
  const results: StepResult[] = [];
  let failed = false;
  for (const step of job.steps) {
    if (failed && step.if !== 'always()') continue;
    const label = expandGithub(step.name ?? step.run ?? step.uses ?? '', opts.matrix).trim();
    const input = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expandGithub(String(v), opts.matrix)]));
    if (step.uses?.startsWith('actions/upload-artifact@')) upload(join(opts.machine, input['path'] ?? ''), join(opts.artifacts, input['name'] ?? ''));
    else if (step.uses?.startsWith('actions/download-artifact@')) download(opts.artifacts, input['pattern'] ?? '*', join(opts.machine, input['path'] ?? '.'));
    if (step.run === undefined) continue;
    const script = localize(expandGithub(step.run, opts.matrix));
    if (script.trim() === '') continue;
    const vars = (e: Record<string, string> | undefined): Record<string, string> => Object.fromEntries(Object.entries(e ?? {}).map(([k, v]) => [k, expandGithub(String(v), opts.matrix)]));
    const r = await bash(label, script, opts.machine, { ...vars(wf.env), ...vars(job.env), ...vars(step.env), ...opts.env });
    results.push(r);
    if (r.code !== 0) failed = true;
  }
  return results;
}

function upload(path: string, artifact: string): void {
  if (!existsSync(path)) return;
  mkdirSync(artifact, { recursive: true });
  cpSync(path, statSync(path).isDirectory() ? artifact : join(artifact, basename(path)), { recursive: true });
}

function download(artifacts: string, pattern: string, into: string): void {
  const match = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  for (const name of existsSync(artifacts) ? readdirSync(artifacts) : []) if (match.test(name)) cpSync(join(artifacts, name), join(into, name), { recursive: true });
}

/**
 * Runs one GitLab job in `machine`: the script items, vendor lines dropped, one after another in
 * one bash (as the runner does, so a background process outlives its line and `exit` ends the
 * job), with the global and the job's variables and `env`; then its `artifacts: paths` are
 * copied into `artifacts` (a later job that needs them gets them all in its working folder).
 */
export async function runGitlabJob(
  variables: Record<string, string>,
  job: GitlabJob,
  opts: { label: string; machine: string; artifacts: string; env: Record<string, string> },
): Promise<StepResult> {
  const script = (job.script ?? []).map(localize).join('\n');
  const r = await bash(opts.label, script, opts.machine, { ...variables, ...(job.variables ?? {}), ...opts.env });
  if (r.code === 0 || job.artifacts?.when === 'always')
    for (const p of job.artifacts?.paths ?? []) if (existsSync(join(opts.machine, p))) cpSync(join(opts.machine, p), join(opts.artifacts, p), { recursive: true });
  return r;
}
