/**
 * The CI templates under docs/ci run as shipped. Each template's shard jobs run their shell
 * steps through bash exactly as written, each on a machine of its own (a folder holding the
 * target profile where the template's `--target` names it, for a conformant greeting service of
 * its own), with the variables the CI system sets: a run or pipeline ID of 10 or 11 digits, as
 * real ones are, and the shard's place. Their artifacts go to the gate job as the CI system hands
 * them over, and the gate's merge judges them. Needs `npm run build`.
 *
 * The vendor's own lines cannot run here and are dropped (see `localize` in ci-jobs.ts):
 * `npm ci`, the `npm install` of specgate's tarball (the built CLI stands in) and `npm start`.
 * The wait for the server does run, against the machine's service: it is generic, and a wait
 * that never ends or fails under `bash -e` would stop every vendor's shard.
 */
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseSeed } from '../../cli/seed-value.js';
import { fromRoot } from '../../src/paths.js';
import { runGithubJob, runGitlabJob, type GithubJob, type GithubWorkflow, type GitlabJob, type StepResult } from './ci-jobs.js';
import { CLOCK_HOOK, assertBuilt, demoSection, readReport, runCli, tempDir, writeProfile } from './cli.js';
import { faultServers } from './fault-server.js';

const tmp = tempDir('specgate-ci-');
const faultServer = faultServers();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

/** A GitHub run ID as they are today (10 to 11 digits): beyond the 31-bit range of seeds. */
const GITHUB_RUN_ID = '12345678901';
/** A GitLab pipeline ID as they are today (10 digits): beyond the range too. */
const CI_PIPELINE_ID = '2345678901';

const load = <T>(name: string): T => parse(readFileSync(fromRoot('docs/ci', name), 'utf8')) as T;

/** Every specgate command line in a CI file's scripts, continued lines joined as the shell joins them. */
const commands = (scripts: unknown[]): string[] =>
  scripts
    .map((s) => String(s).replace(/\\\n\s*/g, ' '))
    .flatMap((s) => s.split(/[;\n]|\|\|/))
    .map((s) => s.trim().replace(/^npx --no /, 'npx '))
    .filter((s) => s.startsWith('npx specgate'));

/** Where a script installs specgate into the vendor's project, waits for the server, runs specgate. */
const INSTALLS = /npm install --no-save "\$SPECGATE_PACKAGE"/;
const WAITS = /curl .*"\$HEALTH_URL"/;

/** The first index of a script holding what `what` matches (-1 when none). */
const indexOf = (scripts: string[], what: RegExp): number => scripts.findIndex((s) => what.test(s));

/** The `--report <format>=<path>` paths of a command line. */
const reportPaths = (line: string): string[] => [...line.matchAll(/--report "?\w+=([^\s"]+)/g)].map((m) => m[1] as string);

function freshDir(name: string): string {
  const d = join(tmp.dir, name);
  mkdirSync(d, { recursive: true });
  return d;
}

/**
 * A fresh CI machine: a folder holding the profile the template's run command names, for a
 * conformant greeting service started for this machine alone, and `HEALTH_URL` (what the
 * template's wait polls) set to an address of that service that answers 200.
 */
async function machine(name: string, runLine: string): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = freshDir(name);
  const profile = /--target (\S+)/.exec(runLine)?.[1];
  if (!profile) throw new Error(`no --target in: ${runLine}`);
  const s = await faultServer();
  const file = join(dir, profile);
  mkdirSync(dirname(file), { recursive: true });
  writeProfile(dirname(file), basename(file, '.yaml'), { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
  return { dir, env: { HEALTH_URL: `${s.url}/hello` } };
}

/** One line per failed step, with its output, for a readable assertion. */
const failures = (steps: StepResult[]): string[] => steps.filter((s) => s.code !== 0).map((s) => `${s.label}: exit ${String(s.code)}\n${s.stdout}${s.stderr}`);

describe('docs/ci/github-actions.yml, run as GitHub runs it', () => {
  const wf = load<GithubWorkflow>('github-actions.yml');
  const jobOf = (name: string): GithubJob => wf.jobs[name] ?? { steps: [] };
  const runsOf = (job: GithubJob): string[] => job.steps.map((s) => s.run ?? '');
  const shardValues = (jobOf('shard').strategy?.matrix['shard'] ?? []).map(String);
  const folded = parseSeed(GITHUB_RUN_ID).seed;
  const artifacts = join(tmp.dir, 'github-artifacts');
  const gateDir = join(tmp.dir, 'github-gate');
  let shards: StepResult[][] = [];
  let gate: StepResult[] = [];

  beforeAll(async () => {
    const runLine = commands(runsOf(jobOf('shard'))).find((c) => c.startsWith('npx specgate run')) ?? '';
    // the three shards side by side, as the matrix runs them
    shards = await Promise.all(
      shardValues.map(async (k) => {
        const m = await machine(`github-shard-${k}`, runLine);
        return runGithubJob(wf, jobOf('shard'), { machine: m.dir, artifacts, matrix: { shard: k }, env: { ...m.env, GITHUB_RUN_ID } });
      }),
    );
    gate = await runGithubJob(wf, jobOf('gate'), { machine: freshDir('github-gate'), artifacts, matrix: {}, env: { GITHUB_RUN_ID } });
  }, 180_000);

  it('installs specgate, starts the server and waits for it to answer, then runs the shard; the gate installs, then merges', () => {
    const shard = runsOf(jobOf('shard'));
    const run = shard.findIndex((s) => commands([s]).some((c) => c.startsWith('npx specgate run')));
    expect([indexOf(shard, INSTALLS), indexOf(shard, WAITS)].every((i) => i >= 0 && i < run)).toBe(true);
    expect(jobOf('shard').steps[indexOf(shard, WAITS)]?.env?.['HEALTH_URL']).toMatch(/^http/);
    expect(wf.env?.['SPECGATE_PACKAGE']).toBeTruthy();
    const merge = runsOf(jobOf('gate')).findIndex((s) => commands([s]).some((c) => c.startsWith('npx specgate merge')));
    expect(indexOf(runsOf(jobOf('gate')), INSTALLS)).toBeGreaterThanOrEqual(0);
    expect(indexOf(runsOf(jobOf('gate')), INSTALLS)).toBeLessThan(merge);
  });

  it('every step of every shard succeeds (no shard exits 2), and each says the run ID was folded', () => {
    expect(shardValues).toEqual(['1', '2', '3']);
    expect(shards.flatMap(failures)).toEqual([]);
    for (const steps of shards) expect(steps.map((s) => s.stdout).join('')).toContain(`seed ${GITHUB_RUN_ID} folded to ${folded}\n`);
  });

  it("each shard's results are in the artifact its upload names, with the folded seed", () => {
    for (const k of shardValues) {
      const file = join(artifacts, `specgate-shard-${k}`, 'results.json');
      expect([file, existsSync(file)]).toEqual([file, true]);
      expect(readReport(file).seed).toBe(folded);
    }
  });

  it('the gate merges the shards: exit 0 on a conformant target, the reports where its upload takes them, the folded seed', () => {
    expect(failures(gate)).toEqual([]);
    const mergeLine = commands(runsOf(jobOf('gate'))).find((c) => c.startsWith('npx specgate merge')) ?? '';
    const uploaded = jobOf('gate').steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))?.with?.['path'] ?? '';
    expect(reportPaths(mergeLine).length).toBeGreaterThan(0);
    for (const p of reportPaths(mergeLine)) {
      expect([p, p.startsWith(uploaded) && existsSync(join(gateDir, p))]).toEqual([p, true]);
    }
    const json = reportPaths(mergeLine).find((p) => p.endsWith('.json')) ?? '';
    const merged = readReport(join(gateDir, json));
    expect(merged.seed).toBe(folded);
    expect(merged.summary.exitCode).toBe(0);
    expect(merged.suites.flatMap((s) => s.cases).length).toBeGreaterThan(0);
  });
});

describe('docs/ci/gitlab-ci.yml, run as GitLab runs it', () => {
  const ci = load<Record<string, unknown>>('gitlab-ci.yml');
  const variables = (ci['variables'] ?? {}) as Record<string, string>;
  const shardJob = (ci['conformance-shard'] ?? {}) as GitlabJob;
  const gateJob = (ci['conformance-gate'] ?? {}) as GitlabJob;
  const total = shardJob.parallel ?? 1;
  const folded = parseSeed(CI_PIPELINE_ID).seed;
  const artifacts = join(tmp.dir, 'gitlab-artifacts');
  const gateDir = join(tmp.dir, 'gitlab-gate');
  let shards: StepResult[] = [];
  let gate: StepResult | undefined;

  beforeAll(async () => {
    const runLine = commands(shardJob.script ?? []).find((c) => c.startsWith('npx specgate run')) ?? '';
    shards = await Promise.all(
      Array.from({ length: total }, async (_x, i) => {
        const k = String(i + 1);
        const m = await machine(`gitlab-shard-${k}`, runLine);
        return runGitlabJob(variables, shardJob, { label: `conformance-shard ${k}/${total}`, machine: m.dir, artifacts, env: { ...m.env, CI_PIPELINE_ID, CI_NODE_INDEX: k, CI_NODE_TOTAL: String(total) } });
      }),
    );
    // `needs: [{ job: conformance-shard, artifacts: true }]`: every shard's artifacts, extracted into the working folder
    mkdirSync(gateDir, { recursive: true });
    if (existsSync(artifacts)) cpSync(artifacts, gateDir, { recursive: true });
    gate = await runGitlabJob(variables, gateJob, { label: 'conformance-gate', machine: gateDir, artifacts: join(tmp.dir, 'gitlab-gate-artifacts'), env: { CI_PIPELINE_ID } });
  }, 180_000);

  it('installs specgate, starts the server and waits for it to answer, then runs the shard; the gate installs, then merges', () => {
    const script = (shardJob.script ?? []).map(String);
    const run = script.findIndex((s) => commands([s]).some((c) => c.startsWith('npx specgate run')));
    expect([indexOf(script, INSTALLS), indexOf(script, WAITS)].every((i) => i >= 0 && i < run)).toBe(true);
    expect({ ...variables, ...(shardJob.variables ?? {}) }['HEALTH_URL']).toMatch(/^http/);
    expect(variables['SPECGATE_PACKAGE']).toBeTruthy();
    const gateScript = (gateJob.script ?? []).map(String);
    const merge = gateScript.findIndex((s) => commands([s]).some((c) => c.startsWith('npx specgate merge')));
    expect(indexOf(gateScript, INSTALLS)).toBeGreaterThanOrEqual(0);
    expect(indexOf(gateScript, INSTALLS)).toBeLessThan(merge);
  });

  it('every shard succeeds (no shard exits 2), and each says the pipeline ID was folded', () => {
    expect(total).toBe(3);
    expect(failures(shards)).toEqual([]);
    for (const s of shards) expect(s.stdout).toContain(`seed ${CI_PIPELINE_ID} folded to ${folded}\n`);
  });

  it("each shard's results are in its artifacts, with the folded seed", () => {
    const runLine = commands(shardJob.script ?? []).find((c) => c.startsWith('npx specgate run')) ?? '';
    const [json] = reportPaths(runLine);
    expect(shardJob.artifacts?.paths?.some((p) => json?.startsWith(p))).toBe(true);
    for (let k = 1; k <= total; k++) {
      const file = join(artifacts, (json ?? '').replace('$CI_NODE_INDEX', String(k)));
      expect([file, existsSync(file)]).toEqual([file, true]);
      expect(readReport(file).seed).toBe(folded);
    }
  });

  it('the gate merges the shards: exit 0 on a conformant target, the reports in its artifacts, the folded seed', () => {
    expect(failures(gate ? [gate] : [])).toEqual([]);
    const mergeLine = commands(gateJob.script ?? []).find((c) => c.startsWith('npx specgate merge')) ?? '';
    expect(reportPaths(mergeLine).length).toBeGreaterThan(0);
    for (const p of reportPaths(mergeLine)) {
      expect([p, (gateJob.artifacts?.paths ?? []).some((a) => p.startsWith(a)) && existsSync(join(gateDir, p))]).toEqual([p, true]);
    }
    const junit = gateJob.artifacts?.reports?.junit ?? '';
    expect([junit, existsSync(join(gateDir, junit))]).toEqual([junit, true]);
    const json = reportPaths(mergeLine).find((p) => p.endsWith('.json')) ?? '';
    const merged = readReport(join(gateDir, json));
    expect(merged.seed).toBe(folded);
    expect(merged.summary.exitCode).toBe(0);
    expect(merged.suites.flatMap((s) => s.cases).length).toBeGreaterThan(0);
  });
});

describe('the specgate command lines of the CI files', () => {
  /** The long options a command line uses, each of which the CLI's help for that command must list. */
  const options = (line: string): string[] => [...line.matchAll(/(?<=\s)--[a-z-]+/g)].map((m) => m[0]);

  it('GitHub Actions: a three-way matrix of shards and a merge job after them that always runs', async () => {
    const wf = load<GithubWorkflow>('github-actions.yml');
    const shard = wf.jobs['shard'];
    const gate = wf.jobs['gate'];
    expect(shard?.strategy?.matrix['shard']).toEqual([1, 2, 3]);
    const runs = commands((shard?.steps ?? []).map((s) => s.run ?? ''));
    expect(runs.some((c) => c.includes('--shard ${{ matrix.shard }}/3'))).toBe(true);
    expect(gate).toMatchObject({ needs: 'shard', if: 'always()' });
    const merges = commands((gate?.steps ?? []).map((s) => s.run ?? ''));
    expect(merges.some((c) => c.startsWith('npx specgate merge shards/*/results.json'))).toBe(true);
    await expectKnownOptions([...runs, ...merges]);
  });

  it('GitLab: a shard job with parallel: 3 and a merge job that needs it', async () => {
    const ci = load<Record<string, GitlabJob>>('gitlab-ci.yml');
    const shard = ci['conformance-shard'];
    const gate = ci['conformance-gate'];
    expect(shard?.parallel).toBe(3);
    const runs = commands(shard?.script ?? []);
    expect(runs.some((c) => c.includes('--shard "$CI_NODE_INDEX/$CI_NODE_TOTAL"'))).toBe(true);
    expect(gate?.needs?.[0]?.job).toBe('conformance-shard');
    expect(gate?.when).toBe('always');
    const merges = commands(gate?.script ?? []);
    expect(merges.some((c) => c.startsWith('npx specgate merge shards/*/results.json'))).toBe(true);
    await expectKnownOptions([...runs, ...merges]);
  });

  /** Each command's help, asked for once for both CI files. */
  const helps = new Map<string, Promise<string>>();
  const helpOf = (command: string): Promise<string> => {
    let help = helps.get(command);
    if (!help) {
      help = runCli([command, '--help'], { cwd: tmp.dir }).then((r) => r.stdout);
      helps.set(command, help);
    }
    return help;
  };

  async function expectKnownOptions(lines: string[]): Promise<void> {
    const commandOf = (line: string): string => line.split(/\s+/)[2] as string;
    const texts = await Promise.all(lines.map((line) => helpOf(commandOf(line))));
    for (const [i, line] of lines.entries()) {
      const command = commandOf(line);
      for (const o of options(line)) expect([command, o, texts[i]?.includes(o)]).toEqual([command, o, true]);
    }
  }
});
