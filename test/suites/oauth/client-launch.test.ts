import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { commandArgv } from '../../../src/targets/command-line.js';
import { launchClient } from '../../../src/targets/client-process/client-process.js';
import { CLIENT_APP } from '../../../suites/oauth/checks/client-command.js';

/** The oauth suite's client command through the engine's one command-line rule. */
const clientArgv = (command: unknown): string[] => commandArgv(command, CLIENT_APP);

/** Running, not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

/** Starting and stopping the client under test: command forms, output watching, group kill. */
describe('client launcher', () => {
  it('runs a command line through the shell, a .js file with this Node, a list as argv', () => {
    expect(clientArgv('my-client --flag "a b"')).toEqual(['/bin/sh', '-c', 'my-client --flag "a b" "$@"', 'sh']);
    expect(clientArgv(fromRoot('bin', 'specgate.js'))).toEqual([process.execPath, fromRoot('bin', 'specgate.js')]);
    expect(clientArgv(['app.mjs', '-v'])).toEqual([process.execPath, 'app.mjs', '-v']);
    expect(() => clientArgv('')).toThrow(/--client/);
  });

  it('sees output as it comes, and the exit status', async () => {
    const ac = new AbortController();
    const c = launchClient('echo "first line"; sleep 0.2; echo "URL http://x/login/oauth/authorize?a=1"; exit 3', { SPECGATE_FLOW: 'web' }, ac.signal);
    const url = await c.waitForOutput((out) => /http:\S+/.exec(out)?.[0], 5000);
    expect(url).toBe('http://x/login/oauth/authorize?a=1');
    expect(await c.waitForExit(5000)).toEqual({ code: 3, signal: null });
    expect(c.stdout()).toContain('first line');
  });

  it('passes the contract variables and BROWSER=echo', async () => {
    const c = launchClient('echo "$SPECGATE_FLOW $BROWSER"', { SPECGATE_FLOW: 'device' }, new AbortController().signal);
    await c.waitForExit(5000);
    expect(c.stdout().trim()).toBe('device echo');
  });

  it('stops the whole process group, children included', async () => {
    const c = launchClient('sleep 30 & echo "child $!"; wait', {}, new AbortController().signal);
    const child = Number(await c.waitForOutput((out) => /child (\d+)/.exec(out)?.[1], 5000));
    expect(child).toBeGreaterThan(0);
    const exit = await c.stop();
    expect(exit.signal ?? exit.code).toBeTruthy();
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(child)).toBe(false);
  });

  it('also ends what an exited client left running in its group', async () => {
    const c = launchClient('(sleep 30 & echo "orphan $!"); exit 0', {}, new AbortController().signal);
    await c.waitForExit(5000);
    const orphan = Number(/orphan (\d+)/.exec(c.stdout())?.[1]);
    expect(alive(orphan)).toBe(true);
    await c.stop();
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(orphan)).toBe(false);
  });

  it('gives up waiting for output when the client ends without it', async () => {
    const c = launchClient('exit 0', {}, new AbortController().signal);
    const started = Date.now();
    expect(await c.waitForOutput(() => undefined, 10_000)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
