import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';
import { SUITE_MODULE, clientCaseIds, runClientSuite, type CliRun } from '../../fixtures/oauth/clients/cli.js';

/**
 * One observed run feeds every case that needs it: the client-side cases that steer a run the
 * same way share one launch of the application (judged checks with `share`), and still pass
 * one by one. The reference client runs behind a wrapper that counts its launches by flow.
 * Needs `npm run build`.
 */
const REFERENCE_CLIENT = fromRoot('dist', 'reference', 'oauth', 'client', 'main.js');
const built = builtSpecgate(SUITE_MODULE, REFERENCE_CLIENT);
declarePeer(built);

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

describe.skipIf(built.skip)('client launches shared between cases', () => {
  let run: CliRun;
  let launches: string[];
  beforeAll(async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'specgate-launches-')), 'launches');
    run = await runClientSuite(`echo "$SPECGATE_FLOW" >> ${quote(log)}; exec ${quote(process.execPath)} ${quote(REFERENCE_CLIENT)}`);
    launches = readFileSync(log, 'utf8').trim().split('\n');
  }, 300_000);

  it('passes every client case, each judged on its own requirements', () => {
    const cases = run.report.suites.flatMap((s) => s.cases);
    expect(cases.map((c) => c.id).sort()).toEqual(clientCaseIds().sort());
    expect(cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''}`)).toEqual([]);
    expect(run.exitCode).toBe(0);
  });

  it('launches once per distinct run, not once per case', () => {
    // device: 15 cases steer 8 distinct runs (the cases that differ only in what the judges
    // expect share). web: 10 single-run cases steer 2 distinct runs (default scope, one scope),
    // the state case launches twice, and the state-mismatch case 4 fixed + 4 generated times.
    expect(launches.filter((f) => f === 'device')).toHaveLength(8);
    expect(launches.filter((f) => f === 'web')).toHaveLength(2 + 2 + 8);
    expect(launches.length).toBeLessThan(clientCaseIds().length);
  });
});
