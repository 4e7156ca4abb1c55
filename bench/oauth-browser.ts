import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeOAuthBrowserProfile } from '../test/fixtures/oauth/browser-actions.js';
import { BIN } from './cli-runs.js';
import { judgeFigure } from './goals.js';
import { interleave, roundHead } from './rounds.js';
import { serveOAuth } from './served-oauth.js';

/**
 * The oauth suite's user agent in headless Chromium against the reference's user-agent bridge,
 * side by side in one run: `specgate run --suite oauth` against the reference served by
 * `specgate serve oauth --profile`, once with that profile (the bridge) and once with the same
 * profile's user agent in Chromium (test/fixtures/oauth/browser-actions.ts), in interleaved
 * rounds (rounds.ts). Each run gets a freshly served reference (not timed) and is timed from the
 * CLI's start to its exit; both runs of a round must give the same verdicts, or the bench fails.
 * By default the cases in which the user signs in, approves, cancels and enters user codes
 * (fifty-one in one of them), a few minutes in all; `BENCH_OAUTH_CASES=all` runs the whole
 * suite (minutes per round), or a comma-separated list. Goal: Chromium within 3x of the bridge.
 */
const DEFAULT_CASES = [
  'authorize-redirects-with-code',
  'authorize-echoes-state',
  'exchange-matches-redirect-uri-of-issue',
  'redirect-table-named-host',
  'pkce-s256-round-trip',
  'device-authorized-returns-token',
  'device-cancel-denies',
  'device-cancelled-user-code-is-spent',
  'user-code-submissions-per-hour',
];
const GOAL = 3;

interface Run {
  ms: number;
  /** case -> outcome, with the requirements it failed. */
  verdicts: Record<string, string>;
  exitCode: number | null;
  slowest: string;
}

function caseArgs(env: NodeJS.ProcessEnv): string[] {
  const asked = env['BENCH_OAUTH_CASES'];
  if (asked === 'all') return [];
  return ['--case', asked ?? DEFAULT_CASES.join(',')];
}

interface ReportCase {
  id: string;
  outcome: string;
  durationMs: number;
  failures: { requirement: string }[];
}

function readRun(json: string): Pick<Run, 'verdicts' | 'slowest'> {
  const report = JSON.parse(readFileSync(json, 'utf8')) as { suites: { cases: ReportCase[] }[] };
  const cases = report.suites.flatMap((s) => s.cases);
  const verdicts = Object.fromEntries(cases.map((c) => [c.id, [c.outcome, ...new Set(c.failures.map((f) => f.requirement))].join(' ')]));
  const slowest = [...cases].sort((a, b) => b.durationMs - a.durationMs)[0];
  return { verdicts, slowest: slowest ? `${slowest.id} ${(slowest.durationMs / 1000).toFixed(1)} s` : 'none' };
}

function timedRun(dir: string, args: string[], env: Record<string, string>): Promise<{ ms: number; code: number | null; stderr: string }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - start, code, stderr }));
  });
}

export async function runBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-bench-oauth-browser-'));
  const cases = caseArgs(process.env);
  let count = 0;
  const runs: { bridge?: Run; browser?: Run } = {};
  const side = async (agent: 'bridge' | 'browser'): Promise<number> => {
    const n = ++count;
    const served = await serveOAuth(join(dir, `served-${n}.yaml`), dir);
    try {
      let target = served.profile;
      if (agent === 'browser') {
        target = join(dir, `browser-${n}.yaml`);
        writeOAuthBrowserProfile(served.profile, target);
      }
      const json = join(dir, `${agent}-${n}.json`);
      const res = await timedRun(dir, ['run', '--suite', 'oauth', '--target', target, ...cases, '--seed', '7', '--report', `json=${json}`], served.env);
      if (res.code !== 0 && res.code !== 1) throw new Error(`the ${agent} run ended with exit ${String(res.code)}: ${res.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      runs[agent] = { ms: res.ms, exitCode: res.code, ...readRun(json) };
      return res.ms;
    } finally {
      await served.stop();
    }
  };
  try {
    const result = await interleave(
      () => side('bridge'),
      () => side('browser'),
      {
        onRound: (r) => {
          const { bridge, browser } = runs;
          if (!bridge || !browser) throw new Error('a round ended without both runs');
          const differ = Object.keys({ ...bridge.verdicts, ...browser.verdicts }).filter((id) => bridge.verdicts[id] !== browser.verdicts[id]);
          if (differ.length || bridge.exitCode !== browser.exitCode)
            throw new Error(`round ${r.round}: the agents disagree (exit ${String(bridge.exitCode)} and ${String(browser.exitCode)}) on ${differ.map((id) => `${id}: bridge ${bridge.verdicts[id] ?? 'absent'}, browser ${browser.verdicts[id] ?? 'absent'}`).join('; ') || 'the exit code'}`);
          console.log(`  ${roundHead(r, ['bridge', 'chromium'])}: bridge ${(r.bare / 1000).toFixed(1)} s, chromium ${(r.specgate / 1000).toFixed(1)} s, ratio ${r.ratio.toFixed(2)}; same verdicts (${Object.keys(bridge.verdicts).length} cases, exit ${String(bridge.exitCode)}); slowest in chromium ${browser.slowest}`);
        },
      },
    );
    console.log(`  cases: ${cases.length ? cases[1] : 'the whole oauth suite'}`);
    console.log(`  bridge ${(result.bare.median / 1000).toFixed(1)} s, chromium ${(result.specgate.median / 1000).toFixed(1)} s (medians)`);
    console.log(judgeFigure('oauth suite, user agent in chromium against the bridge', result.ratio, { name: 'median ratio chromium/bridge', goal: { op: '<=', value: GOAL } }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
