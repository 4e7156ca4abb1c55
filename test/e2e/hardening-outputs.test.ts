/**
 * Where a run writes, and the exit code it says: a report that cannot be written after the run
 * (or after a merge) makes the console's last line the code the process ends with (said once); a report folder that
 * cannot be made is refused before the run; report and regression paths through a symbolic link
 * are refused (exit 2), and a link planted inside the regressions folder is never followed.
 * Needs `npm run build`.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_HOOK, DEMO_MODULE, assertBuilt, demoSection, runCli, tempDir, writeProfile, type CliResult } from './cli.js';
import { faultServers } from './fault-server.js';
import { declarePeer, requirePeer } from '../helpers/peer.js';

const tmp = tempDir('specgate-outputs-');
const faultServer = faultServers();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

const demo = (args: string[]): Promise<CliResult> => runCli(['run', '--suite-module', DEMO_MODULE, '--suite', 'demo', ...args], { cwd: tmp.dir });
const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1) ?? '';

/** A device every write to fails (ENOSPC) while it passes every check made before the run. */
const full = requirePeer('/dev/full', existsSync('/dev/full'), 'a Linux /dev/full device');
declarePeer(full);

describe('one exit code, said once', () => {
  it.skipIf(full.skip)('a report that cannot be written after the run: the last line says exit code 2, and the process exits 2', async () => {
    const res = await demo(['--report', `json=${join(tmp.dir, 'ok.json')}`, '--report', 'tap=/dev/full']);
    expect(res.code).toBe(2);
    expect(lastLine(res.stdout)).toBe('exit code 2: usage, configuration or suite error');
    // the run's own verdict is still said, with why the code is not its own
    expect(res.stdout).toMatch(/conformant at the gating level .*; but an output could not be written \(the error above says which and why\)\n/);
    expect(res.stdout.match(/exit code \d/g)).toEqual(['exit code 2']);
    expect(res.stderr).toMatch(/^specgate: error \[SG_CONFIG\]: could not write the report \/dev\/full: ENOSPC/);
    expect(existsSync(join(tmp.dir, 'ok.json'))).toBe(true);
  });

  it.skipIf(full.skip)('merge too: a merged report that cannot be written makes the last line exit code 2, said once', async () => {
    const shard = join(tmp.dir, 'merge-shard.json');
    expect((await demo(['--report', `json=${shard}`])).code).toBe(0);
    const res = await runCli(['merge', '--suite-module', DEMO_MODULE, shard, '--report', `json=${join(tmp.dir, 'merged.json')}`, '--report', 'tap=/dev/full'], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(lastLine(res.stdout)).toBe('exit code 2: usage, configuration or suite error');
    expect(res.stdout.match(/exit code \d/g)).toEqual(['exit code 2']);
    expect(res.stderr).toMatch(/specgate: error \[SG_CONFIG\]: could not write the report \/dev\/full: ENOSPC/);
    expect(existsSync(join(tmp.dir, 'merged.json'))).toBe(true);
  });

  it('a report folder that cannot be made (under /proc, even for root) is refused before the run', async () => {
    const res = await demo(['--report', 'json=/proc/specgate-no-such-folder/results.json']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^specgate: error \[SG_USAGE\]: --report json=\/proc\/specgate-no-such-folder\/results\.json: cannot create the folder \/proc\/specgate-no-such-folder: nothing can be made in \/proc \(E[A-Z]+\); choose a folder you can write to\n$/);
    expect(res.stdout).not.toMatch(/exit code/);
  });
});

describe('writes stay where asked', () => {
  it('a --report folder that is a symbolic link is refused before the run, naming the link and the real path', async () => {
    const real = join(tmp.dir, 'real-reports');
    mkdirSync(real);
    symlinkSync(real, join(tmp.dir, 'linked-reports'));
    const res = await demo(['--report', 'json=linked-reports/results.json']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`specgate: error [SG_USAGE]: --report json=linked-reports/results.json: the folder ${join(tmp.dir, 'linked-reports')} on the way to it is a symbolic link (to ${real}); specgate writes nothing through a symbolic link`);
    expect(res.stderr).toContain(`give the real path (${join(real, 'results.json')})`);
    expect(res.stdout).not.toMatch(/exit code/);
    expect(readdirSync(real)).toEqual([]);
  });

  it('a --regressions folder that is a symbolic link is refused before the run, and nothing is written where it points', async () => {
    const elsewhere = join(tmp.dir, 'elsewhere-1');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(tmp.dir, 'regressions-link'));
    const s = await faultServer('bad-double');
    const profile = writeProfile(tmp.dir, 'bad-double-1', { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
    const res = await demo(['--target', profile, '--case', 'double-property', '--seed', '7', '--report', `json=${join(tmp.dir, 'r1.json')}`, '--regressions', 'regressions-link']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`--regressions regressions-link: ${join(tmp.dir, 'regressions-link')} is a symbolic link (to ${elsewhere})`);
    expect(res.stdout).not.toMatch(/exit code/);
    expect(readdirSync(elsewhere)).toEqual([]);
  }, 60_000);

  it('a link planted inside the regressions folder is not followed: the case is not written, and the exit code says so once', async () => {
    const root = join(tmp.dir, 'regressions');
    const elsewhere = join(tmp.dir, 'elsewhere-2');
    mkdirSync(root);
    mkdirSync(elsewhere);
    // where the demo's regression cases go: <root>/demo/
    symlinkSync(elsewhere, join(root, 'demo'));
    const s = await faultServer('bad-double');
    const profile = writeProfile(tmp.dir, 'bad-double-2', { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
    const res = await demo(['--target', profile, '--case', 'double-property', '--seed', '7', '--report', `json=${join(tmp.dir, 'r2.json')}`, '--regressions', root]);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(res.stderr).toContain(`specgate: error [SG_USAGE]: --regressions ${root}: the folder ${join(root, 'demo')} on the way to it is a symbolic link`);
    expect(res.code).toBe(2);
    expect(lastLine(res.stdout)).toBe('exit code 2: usage, configuration or suite error');
    expect(res.stdout.match(/exit code \d/g)).toEqual(['exit code 2']);
  }, 60_000);

  it('init --out through a symbolic link is refused, and nothing is written where it points', async () => {
    const elsewhere = join(tmp.dir, 'elsewhere-3');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(tmp.dir, 'profiles-link'));
    const res = await runCli(['init', 'ctx-auth', '--out', 'profiles-link/ctx-auth.yaml'], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`specgate: error [SG_USAGE]: --out profiles-link/ctx-auth.yaml: the folder ${join(tmp.dir, 'profiles-link')} on the way to it is a symbolic link (to ${elsewhere})`);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
