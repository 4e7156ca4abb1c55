import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/engine/model.js';
import { pool } from '../../../src/engine/run-suite.js';
import { findChromium, CHROMIUM_HINT } from '../../../src/targets/browser/find-chromium.js';
import { fromRoot } from '../../../src/paths.js';
import { suite } from '../../../suites/affiliate/index.js';
import { builtSpecgate, declarePeer, requirePeer } from '../../helpers/peer.js';
import { loadedSuite } from '../../helpers/suite-facts.js';
import { readReport, runCli, tempDir } from '../../e2e/cli.js';

/**
 * The affiliate suite through the command line, as a user runs it: every case (platform side
 * and the integration's pages in headless Chromium) against the bundled reference platform
 * and reference integration; `--affiliate-integration` naming a planted-fault integration; and
 * the same run on a machine without Chromium, where the integration cases are skipped with
 * what to install while the platform side is judged as usual. Needs `npm run build`.
 */
const FAULT_INTEGRATION = fromRoot('dist', 'test', 'fixtures', 'affiliate', 'integrations', 'fault-integration.js');
const built = builtSpecgate(FAULT_INTEGRATION, 'suites/affiliate/index.js');
declarePeer(built);
const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

interface CliRun {
  code: number | null;
  stdout: string;
  report: RunResult;
}

const statusOf = (r: RunResult, id: string): string | undefined => r.requirements.find((v) => v.id === id)?.status;
const failed = (r: RunResult): string[] => r.requirements.filter((v) => v.status === 'failed').map((v) => v.id).sort();

describe.skipIf(built.skip)('specgate run --suite affiliate', () => {
  const tmp = tempDir('specgate-affiliate-cli-');
  const runs = new Map<string, CliRun>();
  afterAll(() => tmp.remove());

  async function cli(name: string, extra: string[], env: Record<string, string> = {}): Promise<CliRun> {
    const json = join(tmp.dir, `${name}.json`);
    // three cases at once: two runs side by side, each with Chromium and its own processes, on a 2-core machine
    const res = await runCli(['run', '--suite', 'affiliate', '--seed', '11', '--concurrency', '3', '--no-color', '--report', `json=${json}`, ...extra], { cwd: tmp.dir, env });
    return { code: res.code, stdout: res.stdout, report: readReport(json) as unknown as RunResult };
  }

  beforeAll(async () => {
    await pool(['reference', 'fault'], 2, async (name) => {
      if (name === 'reference') runs.set(name, await cli(name, []));
      else runs.set(name, await cli(name, ['--case', 'integration-autologin-get-object', '--affiliate-integration', `${process.execPath} ${FAULT_INTEGRATION} --fault object-parameters-dropped`]));
    });
  }, 180_000);

  it.skipIf(chromium.skip)('passes every case against the reference platform and the reference integration', () => {
    const run = runs.get('reference');
    const cases = run?.report.suites.flatMap((s) => s.cases) ?? [];
    expect(cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''} ${c.failures.map((f) => f.message).join(' | ')}`)).toEqual([]);
    expect(run?.code, run?.stdout).toBe(0);
    // every integration-side case ran (and passed, above)
    const integration = loadedSuite(suite).cases.filter((c) => c.id.startsWith('integration-')).map((c) => c.id);
    expect(integration.length).toBeGreaterThan(0);
    expect(cases.filter((c) => c.id.startsWith('integration-')).map((c) => c.id).sort()).toEqual(integration.sort());
    const untested = run?.report.requirements.filter((v) => v.status === 'untested').map((v) => v.id) ?? [];
    expect(untested).toEqual([]);
    for (const id of ['AFF-INT-KEY-SERVER-SIDE', 'AFF-INT-AUTOLOGIN-POST', 'AFF-INT-AUTOLOGIN-GET', 'AFF-INT-FRAGMENT', 'AFF-INT-PARAMETER-SHAPES']) expect(statusOf(run?.report as RunResult, id), id).toBe('passed');
  });

  it.skipIf(chromium.skip)('--affiliate-integration judges the named integration: one that drops object parameters fails AFF-INT-PARAMETER-SHAPES alone', () => {
    const run = runs.get('fault');
    expect(run?.code).toBe(1);
    expect(failed(run?.report as RunResult)).toEqual(['AFF-INT-PARAMETER-SHAPES']);
    const c = run?.report.suites.flatMap((s) => s.cases).find((x) => x.id === 'integration-autologin-get-object');
    expect(c?.outcome).toBe('failed');
    expect(c?.failures[0]?.message).toBeTruthy();
  });

  it('without a browser (SPECGATE_CHROMIUM=none), the integration cases are skipped saying what to install; the platform side is still judged', async () => {
    const run = await cli('no-browser', ['--case', 'integration-signup,ip-whitelist'], { SPECGATE_CHROMIUM: 'none' });
    const cases = run.report.suites.flatMap((s) => s.cases);
    expect(cases.find((x) => x.id === 'integration-signup')).toMatchObject({ outcome: 'skipped', reason: expect.stringContaining(CHROMIUM_HINT) });
    expect(cases.find((x) => x.id === 'ip-whitelist')?.outcome).toBe('passed');
    expect(statusOf(run.report, 'AFF-INT-REGISTER-FORM')).toBe('untested');
    expect(run.code).toBe(0);
  });

  it('a SPECGATE_CHROMIUM that names no executable is an error that says so, not a skip', async () => {
    const run = await cli('bad-browser', ['--case', 'integration-signup'], { SPECGATE_CHROMIUM: join(tmp.dir, 'no-such-chromium') });
    const c = run.report.suites.flatMap((s) => s.cases).find((x) => x.id === 'integration-signup');
    expect(c).toMatchObject({ outcome: 'errored', errorCode: 'SG_CONFIG', reason: expect.stringMatching(/SPECGATE_CHROMIUM=\S+no-such-chromium is not an executable file/) });
    expect(run.code).toBe(3);
  });
});
