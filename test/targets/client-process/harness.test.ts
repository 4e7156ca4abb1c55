import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { OUTPUT_CAP, clientLaunchesReady, launchClient, type ClientThread } from '../../../src/targets/client-process/client-process.js';
import { finishClient, withClientHarness, type LoopbackServer } from '../../../src/targets/client-process/harness.js';
import { launchEnv } from '../../../src/targets/client-process/launch-env.js';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';

const built = builtSpecgate('src/targets/exec-worker.js');
declarePeer(built);

/** The client-process mode: launching an application under test, watching it, and always cleaning up. */

/** Running, not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const settle = (ms = 200): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('launch environment', () => {
  it('adds BROWSER=echo and the suite contract to the inherited environment', () => {
    const env = launchEnv({ SPECGATE_FLOW: 'web' }, { PATH: '/bin', BROWSER: 'firefox', HOME: undefined });
    expect(env).toEqual({ PATH: '/bin', BROWSER: 'echo', NO_PROXY: '127.0.0.1,localhost,::1', no_proxy: '127.0.0.1,localhost,::1', SPECGATE_FLOW: 'web' });
  });

  it("keeps the user's NO_PROXY entries and adds loopback, so a proxy-honouring client reaches the played server", () => {
    const env = launchEnv({}, { HTTP_PROXY: 'http://proxy.invalid:3128', NO_PROXY: 'corp.example, localhost' });
    expect(env['HTTP_PROXY']).toBe('http://proxy.invalid:3128');
    expect(env['NO_PROXY']).toBe('corp.example,localhost,127.0.0.1,::1');
    expect(env['no_proxy']).toBe('127.0.0.1,localhost,::1');
  });

  it('refuses contract variables outside the SPECGATE_ namespace', () => {
    expect(() => launchEnv({ PATH: '/nowhere' })).toThrow(/SPECGATE_\*/);
  });

  it('takes PORT besides the SPECGATE_ names: where web applications read the port to listen on', () => {
    expect(launchEnv({ PORT: '4101', SPECGATE_X: 'y' }, {})).toMatchObject({ PORT: '4101', SPECGATE_X: 'y' });
  });
});

// every client starts in the exec worker thread once it is ready, in the launching thread before
// (or where worker threads cannot run): the same behaviour either way
describe.each<ClientThread>(['worker', 'this thread'])('client process started in %s', (where) => {
  beforeAll(async () => {
    if (where === 'worker' && !built.skip) expect(await clientLaunchesReady()).toBe(true);
  });
  const launch = (command: unknown, signal: AbortSignal): ReturnType<typeof launchClient> => {
    const c = launchClient(command, {}, signal, 'client application', where);
    if (!built.skip) expect(c.startedIn).toBe(where);
    return c;
  };

  it('keeps at most the output cap of a client that floods its output, and still stops it', async () => {
    const c = launch(['yes', 'a line the client repeats for ever'], new AbortController().signal);
    await c.waitForOutput((out) => (out.length >= OUTPUT_CAP ? true : undefined), 10_000);
    await settle();
    expect(c.stdout().length).toBe(OUTPUT_CAP);
    const exit = await c.stop();
    expect(exit.signal).toBeTruthy();
  });

  it('kills a client that ignores SIGTERM', async () => {
    const c = launch([process.execPath, '-e', 'process.on("SIGTERM", () => console.log("ignored")); console.log("up"); setInterval(() => {}, 1000)'], new AbortController().signal);
    await c.waitForOutput((out) => (out.includes('up') ? true : undefined), 5000);
    const started = Date.now();
    expect(await c.stop()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('kills the whole group at once when the case is aborted', async () => {
    const ac = new AbortController();
    const c = launch('sleep 30 & echo "child $!"; wait', ac.signal);
    const child = Number(await c.waitForOutput((out) => /child (\d+)/.exec(out)?.[1], 5000));
    ac.abort();
    // waiting ends with the case: nothing waits on an aborted case's client
    expect(await c.waitForExit(3000)).toBeUndefined();
    await settle(300);
    expect(c.exit()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(alive(child)).toBe(false);
  });

  it('answers a second stop with the same end, and keeps the output it had', async () => {
    const c = launch('echo "bye"; echo "err" >&2; exit 4', new AbortController().signal);
    expect(await c.waitForExit(5000)).toEqual({ code: 4, signal: null });
    expect(await c.stop()).toEqual({ code: 4, signal: null });
    expect(await c.stop()).toEqual({ code: 4, signal: null });
    expect([c.stdout(), c.stderr()]).toEqual(['bye\n', 'err\n']);
  });

  it('refuses an argument holding a NUL at once, as starting it would', () => {
    expect(() => launch(['printf', 'a\0b'], new AbortController().signal)).toThrow(/cannot start the client application/);
  });

  it('errors, saying why, for a program that cannot even be tried', async () => {
    const attempt = async (): Promise<unknown> => launch(['/etc/passwd/client-under-test'], new AbortController().signal).waitForExit(3000);
    await expect(attempt()).rejects.toMatchObject({ code: 'SG_TARGET_UNREACHABLE', message: expect.stringMatching(/^cannot start the client application \/etc\/passwd\/client-under-test: spawn ENOTDIR/) });
  });

  it('says why it cannot start a missing program', async () => {
    const c = launch(['/nonexistent/client-under-test'], new AbortController().signal);
    expect(await c.waitForExit(3000)).toEqual({ code: null, signal: null });
    expect(c.stderr()).toMatch(/spawn error.*ENOENT/);
  });
});

describe('client harness', () => {
  it('serves on 127.0.0.1 port 0, launches with the contract, and stops everything when the run ends', async () => {
    let server: LoopbackServer | undefined;
    let pid = 0;
    const seen: string[] = [];
    const finished = await withClientHarness(new AbortController().signal, async (h) => {
      server = await h.listen((req, res) => {
        seen.push(`${req.method} ${req.url}`);
        res.end('hello');
      });
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      expect(server.port).toBeGreaterThan(0);
      const c = h.launch(`curl -s "$SPECGATE_URL/ping" || node -e "fetch(process.env.SPECGATE_URL + '/ping').then(r => r.text()).then(console.log)"; echo; echo "pid $$"; sleep 30`, { SPECGATE_URL: server.url });
      pid = Number(await c.waitForOutput((out) => /pid (\d+)/.exec(out)?.[1], 10_000));
      expect(c.stdout()).toContain('hello');
      return finishClient(c, 'demo client');
    });
    expect(seen).toEqual(['GET /ping']);
    expect(finished.stopped).toBe(true);
    expect(finished.exchange.summary).toMatch(/^demo client .* -> stopped by the harness$/);
    await settle();
    expect(alive(pid)).toBe(false);
    await expect(request(`${server?.url}/ping`)).rejects.toThrow();
  });

  it('cleans up when the played side throws, stopping owned resources too', async () => {
    let pid = 0;
    let ownedStopped = false;
    const run = withClientHarness(new AbortController().signal, async (h) => {
      h.own({ stop: async () => void (ownedStopped = true) });
      const c = h.launch('echo "pid $$"; exec sleep 30', {});
      pid = Number(await c.waitForOutput((out) => /pid (\d+)/.exec(out)?.[1], 5000));
      throw new Error('the played server broke');
    });
    await expect(run).rejects.toThrow('the played server broke');
    expect(ownedStopped).toBe(true);
    await settle();
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
  });

  it('reports a client that exited early with its status and output', async () => {
    const finished = await withClientHarness(new AbortController().signal, async (h) => {
      const c = h.launch('echo "bye"; exit 4', {});
      await c.waitForExit(5000);
      return finishClient(c);
    });
    expect(finished).toMatchObject({ stopped: false, exit: { code: 4, signal: null }, stdout: 'bye\n' });
    expect(finished.exchange.summary).toMatch(/-> exit status 4$/);
  });

  it('runs on real time until the client sleeps through the clock hook', async () => {
    await withClientHarness(new AbortController().signal, async (h) => {
      expect(h.clock.kind).toBe('hook');
      expect(Math.abs(h.clock.now() - Date.now())).toBeLessThan(50);
    });
  });
});
