/**
 * The two user agents of the oauth suite give the same verdicts: the reference's user-agent
 * bridge (the profile `specgate serve oauth --profile` writes) and the same profile's user agent
 * in headless Chromium (test/fixtures/oauth/browser-actions.ts), each run with
 * `specgate run --suite oauth --target <profile>` against a reference of its own served behind a
 * gateway. Through a clean gateway every case passes with both; through a gateway that refuses
 * the device flow's Authorize button (a defect on a page the user sees) both fail the same
 * requirement in the same cases. Verdicts only: how long each took is the benchmark's
 * (bench/oauth-browser.ts). Needs `npm run build` and Chromium.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_HINT, findChromium } from '../../src/targets/browser/find-chromium.js';
import { writeOAuthBrowserProfile } from '../fixtures/oauth/browser-actions.js';
import { startFaultGateway, type PageFault } from '../fixtures/oauth/gateway/fault-gateway.js';
import { declarePeer, requirePeer } from '../helpers/peer.js';
import { assertBuilt, readReport, runCli, tempDir, type JsonReport } from './cli.js';
import { listeningPort, readEnvFile, serveReference } from './served-reference.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

/**
 * Cases in which the user signs in, approves or cancels on the web flow's and the device flow's
 * pages, and enters fifty-one user codes in one case (within the default case limit).
 */
const CASES = [
  'authorize-redirects-with-code',
  'authorize-echoes-state',
  'device-verification-uri',
  'device-authorized-returns-token',
  'device-cancel-denies',
  'device-cancelled-user-code-is-spent',
  'user-code-submissions-per-hour',
];

type Agent = 'bridge' | 'browser';
type Fault = PageFault | 'none';

/** What a run decided: its exit code, each case's outcome with the requirements it failed or was blocked by, each requirement's status. */
interface Verdicts {
  exitCode: number | null;
  cases: Record<string, string>;
  requirements: Record<string, string>;
}

function verdictsOf(exitCode: number | null, report: JsonReport): Verdicts {
  const cases = report.suites.flatMap((s) => s.cases);
  return {
    exitCode,
    cases: Object.fromEntries(
      cases.map((c) => {
        const failed = [...new Set(c.failures.map((f) => f.requirement))].sort().join(',');
        return [c.id, [c.outcome, failed, c.blockedBy?.requirement ?? ''].join(' ').trim()];
      }),
    ),
    requirements: Object.fromEntries(report.requirements.map((r) => [r.id, r.status])),
  };
}

const tmp = tempDir('specgate-agent-verdicts-');
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  tmp.remove();
});

/** Serves a fresh reference behind a gateway planting `fault` and judges it with `agent`. */
async function judge(agent: Agent, fault: Fault): Promise<{ verdicts: Verdicts; changes: string[]; seen: string[]; output: string }> {
  const gateway = await startFaultGateway({ fault });
  cleanups.push(() => gateway.stop());
  const served = join(tmp.dir, `${agent}-${fault}-served.yaml`);
  const reference = await serveReference(['oauth', '--public-url', gateway.url, '--profile', served], tmp.dir);
  cleanups.push(() => reference.stop());
  gateway.to(`http://127.0.0.1:${listeningPort(reference)}`);
  let target = served;
  if (agent === 'browser') {
    target = join(tmp.dir, `${agent}-${fault}.yaml`);
    writeOAuthBrowserProfile(served, target);
  }
  const json = join(tmp.dir, `${agent}-${fault}.json`);
  const res = await runCli(['run', '--suite', 'oauth', '--target', target, '--case', CASES.join(','), '--seed', '7', '--report', `json=${json}`], {
    cwd: tmp.dir,
    env: readEnvFile(served.replace(/\.yaml$/, '.env')),
  });
  await reference.stop();
  await gateway.stop();
  return { verdicts: verdictsOf(res.code, readReport(json)), changes: [...gateway.changes], seen: [...gateway.seen], output: `${res.stdout.slice(-1500)}${res.stderr.slice(-1500)}` };
}

describe.skipIf(chromium.skip)('the bridge and the browser user agent of the oauth suite', () => {
  beforeAll(() => assertBuilt());

  it('give the same verdicts through a clean gateway: every case passes with both (exit 0)', async () => {
    const bridge = await judge('bridge', 'none');
    const browser = await judge('browser', 'none');
    expect(browser.verdicts, browser.output).toEqual(bridge.verdicts);
    expect(bridge.verdicts.exitCode, bridge.output).toBe(0);
    expect(Object.values(bridge.verdicts.cases)).toEqual(CASES.map(() => 'passed'));
    // the browser went through the pages the gateway serves: it really signed in and pressed the buttons
    expect(browser.seen).toEqual(expect.arrayContaining(['POST /session', 'GET /login/oauth/authorize', 'POST /login/oauth/authorize/decision', 'GET /login/device', 'POST /login/device', 'POST /login/device/decision']));
  }, 300_000);

  it('give the same verdicts through a gateway that refuses the device flow\'s Authorize button: both fail OAUTH-DEVICE-AUTHORIZED-TOKEN alone (exit 1)', async () => {
    const bridge = await judge('bridge', 'device-approval-refused');
    const browser = await judge('browser', 'device-approval-refused');
    expect(browser.verdicts, browser.output).toEqual(bridge.verdicts);
    expect(bridge.verdicts.exitCode, bridge.output).toBe(1);
    expect(Object.entries(bridge.verdicts.requirements).filter(([, s]) => s === 'failed')).toEqual([['OAUTH-DEVICE-AUTHORIZED-TOKEN', 'failed']]);
    expect(bridge.verdicts.cases['device-authorized-returns-token']).toBe('failed OAUTH-DEVICE-AUTHORIZED-TOKEN');
    // the defect was met on the page in both runs: the Authorize button's post was refused
    for (const run of [bridge, browser]) expect(run.changes).toContain('refused POST /login/device/decision (decision=approve) with 403');
  }, 300_000);
});
