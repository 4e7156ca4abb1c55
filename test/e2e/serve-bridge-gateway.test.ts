/**
 * The oauth reference served behind a gateway (`specgate serve oauth --public-url <gateway>`) and
 * judged with the profile serve writes, whose user agent is the reference's bridge: the simulated
 * user goes through the gateway, as a person would, so a defect the gateway plants on the
 * pages the user sees is caught. A gateway that refuses the Authorize button of the device
 * flow's page fails OAUTH-DEVICE-AUTHORIZED-TOKEN; the same run through a clean gateway passes.
 * Needs `npm run build`.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFaultGateway, type FaultGateway, type PageFault } from '../fixtures/oauth/gateway/fault-gateway.js';
import { assertBuilt, caseOf, readReport, runCli, tempDir, type CliResult, type JsonReport } from './cli.js';
import { listeningPort, readEnvFile, serveReference } from './served-reference.js';
import { failedAssertions } from '../helpers/verdicts.js';

const tmp = tempDir('specgate-bridge-gateway-');
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  tmp.remove();
});

/** Cases in which the user acts on the device flow's and the web flow's pages, and one that reads where the device flow sends the user. */
const CASES = ['device-verification-uri', 'device-authorized-returns-token', 'device-cancel-denies', 'authorize-redirects-with-code'];

/** The pages the simulated user opens and the forms it submits in those cases. */
const USER_PAGES = ['POST /session', 'GET /login/oauth/authorize', 'POST /login/oauth/authorize/decision', 'GET /login/device', 'POST /login/device'];

async function runThrough(fault: PageFault | 'none'): Promise<{ run: CliResult; report: JsonReport; gateway: FaultGateway }> {
  const gateway = await startFaultGateway({ fault });
  cleanups.push(() => gateway.stop());
  const file = join(tmp.dir, `${fault}.yaml`);
  const served = await serveReference(['oauth', '--public-url', gateway.url, '--profile', file], tmp.dir);
  cleanups.push(() => served.stop());
  gateway.to(`http://127.0.0.1:${listeningPort(served)}`);
  const json = join(tmp.dir, `${fault}.json`);
  const run = await runCli(['run', '--suite', 'oauth', '--target', file, '--case', CASES.join(','), '--seed', '5', '--report', `json=${json}`], { cwd: tmp.dir, env: readEnvFile(join(tmp.dir, `${fault}.env`)) });
  return { run, report: readReport(json), gateway };
}

describe('the oauth bridge agent behind a gateway (serve --public-url)', () => {
  it('acts through the gateway: a gateway refusing the device flow\'s Authorize button fails OAUTH-DEVICE-AUTHORIZED-TOKEN alone (exit 1)', async () => {
    assertBuilt();
    const { run, report, gateway } = await runThrough('device-approval-refused');
    expect(run.code, run.stdout.slice(-2000)).toBe(1);
    expect(report.requirements.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual(['OAUTH-DEVICE-AUTHORIZED-TOKEN']);
    const approval = caseOf(report, 'device-authorized-returns-token');
    expect(approval.outcome).toBe('failed');
    // the user could not authorize, and the poll after it got no token
    expect(new Set(approval.failures.map((f) => f.requirement))).toEqual(new Set(['OAUTH-DEVICE-AUTHORIZED-TOKEN']));
    expect(failedAssertions(approval.failures)[0]?.message).toMatch(/^entering a fresh user code and authorizing: \$ expected "authorized", got "rejected"/);
    // the user entered the code on the page the gateway serves, cancelled there, and approved a web authorization there
    for (const id of ['device-verification-uri', 'device-cancel-denies', 'authorize-redirects-with-code']) expect(caseOf(report, id).outcome, id).toBe('passed');
    expect(gateway.changes).toEqual(['refused POST /login/device/decision (decision=approve) with 403']);
    // the web flow's pages too: the bridge signs in and approves at the public origin
    expect(gateway.seen).toEqual(expect.arrayContaining(USER_PAGES));
  }, 120_000);

  it('passes every case through a clean gateway (exit 0)', async () => {
    const { run, report, gateway } = await runThrough('none');
    expect(run.code, run.stdout.slice(-2000)).toBe(0);
    expect(report.requirements.filter((r) => r.status === 'failed')).toEqual([]);
    for (const id of CASES) expect(caseOf(report, id).outcome, id).toBe('passed');
    expect(gateway.changes).toEqual([]);
    // what passed is what the user did through the gateway
    expect(gateway.seen).toEqual(expect.arrayContaining([...USER_PAGES, 'POST /login/device/decision']));
  }, 120_000);
});
