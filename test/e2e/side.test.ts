/**
 * `specgate run --side`: judging one side of a protocol. The oauth suite judges the platform
 * (server) and the applications that use it (client): a run of the server side runs no client
 * case and reports every client requirement not applicable — in the JSON report and, as a
 * skipped testcase saying so, in a JUnit file that still validates — and exits 0; the client
 * side the other way round. A vendor's profile says the same with `side:`.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { declarePeer } from '../helpers/peer.js';
import { validate, xmllint, xpath } from '../reporting/xmllint.js';
import { assertBuilt, readReport, runCli, tempDir, type CliResult } from './cli.js';

/** What these tests read of the JSON report, beyond the shared shape. */
interface SideReport {
  summary: { exitCode: number; requirements: Record<string, number> };
  requirements: { id: string; status: string; side: string | null; reason: string | null }[];
  suites: { name: string; sides: string[] | null; properties: Record<string, string>; cases: { id: string; outcome: string; requirements: string[] }[] }[];
}

const isClient = (id: string): boolean => id.startsWith('OAUTH-CLIENT-');

interface SideRun {
  cli: CliResult;
  report: SideReport;
  junit: string;
}

async function runSide(dir: string, args: string[]): Promise<SideRun> {
  const json = join(dir, 'results.json');
  const junit = join(dir, 'junit.xml');
  const cli = await runCli(['run', '--suite', 'oauth', '--seed', '7', '--report', `json=${json}`, '--report', `junit=${junit}`, ...args], { cwd: dir });
  if (cli.code !== 0) throw new Error(`specgate exited ${String(cli.code)}: ${cli.stderr}\n${cli.stdout.slice(-2000)}`);
  return { cli, report: readReport(json) as unknown as SideReport, junit };
}

declarePeer(xmllint);

describe('run --suite oauth --side server (the platform only)', () => {
  const tmp = tempDir('specgate-side-server-');
  let run: SideRun;
  beforeAll(async () => {
    assertBuilt();
    run = await runSide(tmp.dir, ['--side', 'server']);
  }, 240_000);
  afterAll(() => tmp.remove());

  it('exits 0, conformant, and says which side it judged', () => {
    expect(run.cli.code).toBe(0);
    expect(run.report.summary.exitCode).toBe(0);
    expect(run.cli.stdout).toMatch(/oauth \(\d+ cases, [\d.]+ s, server side only\)/);
    expect(run.report.suites[0]?.sides).toEqual(['server']);
    expect(run.report.suites[0]?.properties['side']).toBe('server');
  });

  it('runs no client case, and every platform case it runs passes', () => {
    const cases = run.report.suites[0]?.cases ?? [];
    expect(cases.length).toBeGreaterThan(40);
    expect(cases.filter((c) => c.requirements.some(isClient)).map((c) => c.id)).toEqual([]);
    expect(cases.filter((c) => c.outcome !== 'passed').map((c) => c.id)).toEqual([]);
  });

  it('reports every client requirement not applicable with the reason, none untested', () => {
    const client = run.report.requirements.filter((r) => isClient(r.id));
    expect(client.length).toBeGreaterThan(10);
    for (const r of client) expect([r.id, r.status, r.side, r.reason]).toEqual([r.id, 'not-applicable', 'client', 'this run judges the server side only']);
    const server = run.report.requirements.filter((r) => !isClient(r.id));
    expect(new Set(server.map((r) => r.status))).toEqual(new Set(['passed', 'excluded']));
    expect(run.report.summary.requirements['not-applicable']).toBe(client.length);
    expect(run.report.summary.requirements['untested']).toBe(0);
  });

  it.skipIf(xmllint.skip)('the JUnit file validates, and each client requirement is a skipped testcase saying "not applicable"', () => {
    expect(validate(run.junit)).toEqual({ ok: true, errors: [] });
    const client = run.report.requirements.filter((r) => isClient(r.id));
    const skipped = xpath(run.junit, 'count(//testsuite[@name="oauth.requirements"]/testcase[starts-with(@name,"OAUTH-CLIENT-")]/skipped[starts-with(@message,"not applicable: this run judges the server side only")])');
    expect(Number(skipped)).toBe(client.length);
    expect(xpath(run.junit, 'count(//testcase[starts-with(@name,"OAUTH-CLIENT-")]/failure)')).toBe('0');
    expect(xpath(run.junit, 'count(//testsuite[@name="oauth"]/testcase[contains(@name,"OAUTH-CLIENT-")])')).toBe('0');
    expect(xpath(run.junit, 'string(//testsuite[@name="oauth"]/properties/property[@name="side"]/@value)')).toBe('server');
  });
});

describe('run --suite oauth --side client (an application only)', () => {
  const tmp = tempDir('specgate-side-client-');
  let run: SideRun;
  beforeAll(async () => {
    assertBuilt();
    run = await runSide(tmp.dir, ['--side', 'client']);
  }, 240_000);
  afterAll(() => tmp.remove());

  it('runs only client cases, judges every client requirement, and exits 0', () => {
    expect(run.cli.code).toBe(0);
    const cases = run.report.suites[0]?.cases ?? [];
    expect(cases.length).toBeGreaterThan(10);
    expect(cases.filter((c) => !c.requirements.every(isClient)).map((c) => c.id)).toEqual([]);
    for (const r of run.report.requirements.filter((x) => isClient(x.id))) expect([r.id, r.status]).toEqual([r.id, 'passed']);
  });

  it('reports the platform requirements not applicable (the catalog exclusions stay excluded)', () => {
    const server = run.report.requirements.filter((r) => !isClient(r.id));
    const statuses = new Set(server.map((r) => r.status));
    expect(statuses).toEqual(new Set(['not-applicable', 'excluded']));
    for (const r of server.filter((x) => x.status === 'not-applicable')) expect([r.id, r.side, r.reason]).toEqual([r.id, 'server', 'this run judges the client side only']);
  });

  it.skipIf(xmllint.skip)('the JUnit file validates, with the platform requirements skipped as not applicable', () => {
    expect(validate(run.junit)).toEqual({ ok: true, errors: [] });
    const na = run.report.requirements.filter((r) => r.status === 'not-applicable').length;
    expect(Number(xpath(run.junit, 'count(//testsuite[@name="oauth.requirements"]/testcase/skipped[starts-with(@message,"not applicable: this run judges the client side only")])'))).toBe(na);
  });
});

describe('choosing a side that does not exist', () => {
  const tmp = tempDir('specgate-side-bad-');
  afterAll(() => tmp.remove());

  it('is exit 2 before anything runs, listing the suite\'s sides', async () => {
    const r = await runCli(['run', '--suite', 'oauth', '--side', 'platform', '--report', `json=${join(tmp.dir, 'r.json')}`], { cwd: tmp.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('specgate: error [SG_USAGE]: --side platform: suite oauth has no side "platform"; its sides: server (');
    expect(r.stderr).toContain('), client (');
    expect(r.stdout).not.toContain('Summary');
  });

  it('with several suites, names the suite whose sides differ and how to choose per suite', async () => {
    const r = await runCli(['run', '--suite', 'oauth,plugin', '--side', 'server', '--report', `json=${join(tmp.dir, 'r.json')}`], { cwd: tmp.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--side server: suite plugin has no side "server"; its sides: plugin \(.*\), compiler \(.*\) \(with several suites, choose per suite: --side plugin=<side>\)/);
  });
});

describe("a vendor's profile that plays the platform only (side: server)", () => {
  const tmp = tempDir('specgate-side-profile-');
  let stop: () => void = () => undefined;
  let profile = '';
  beforeAll(async () => {
    assertBuilt();
    // the reference platform as its own process: an external target with a profile, as a vendor's would be
    const written = join(tmp.dir, 'vendor.yaml');
    const child = spawn(process.execPath, [fromRoot('dist/reference/oauth/server/standalone.js'), '--profile', written, '--lifetime', '300'], { stdio: ['ignore', 'pipe', 'pipe'] });
    stop = () => void child.kill('SIGTERM');
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the platform exited with ${String(code)}`)));
      child.stdout.once('data', () => resolve());
    });
    const data = JSON.parse(readFileSync(written, 'utf8').replace(/^#.*\n/, '')) as { suites: { oauth: Record<string, unknown> } };
    profile = join(tmp.dir, 'vendor-server.yaml');
    writeFileSync(profile, JSON.stringify({ ...data, suites: { oauth: { ...data.suites.oauth, side: 'server' } } }));
  });
  afterAll(() => {
    stop();
    tmp.remove();
  });

  it('runs the platform cases only and reports the client requirements not applicable, not untested', async () => {
    const run = await runSide(tmp.dir, ['--target', profile]);
    expect(run.report.summary.exitCode).toBe(0);
    expect(run.report.suites[0]?.sides).toEqual(['server']);
    const client = run.report.requirements.filter((r) => isClient(r.id));
    expect(new Set(client.map((r) => r.status))).toEqual(new Set(['not-applicable']));
    expect(run.report.summary.requirements['untested']).toBe(0);
  }, 240_000);

  it('a profile side the suite does not have is exit 2, naming the profile', async () => {
    const bad = join(tmp.dir, 'vendor-bad.yaml');
    writeFileSync(bad, readFileSync(profile, 'utf8').replace('"side":"server"', '"side":"platform"'));
    const r = await runCli(['run', '--suite', 'oauth', '--target', bad, '--report', `json=${join(tmp.dir, 'bad.json')}`], { cwd: tmp.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\[SG_CONFIG\]: .*vendor-bad\.yaml:\d+:\d+: the target profile's suites\.oauth\.side: suite oauth has no side "platform"; its sides: server/);
  });
});
