/**
 * A reference in a worker thread (src/engine/reference-worker): what it hands back crosses, time
 * the engine lets pass holds for its very next request, it stops with its thread, and a thread
 * that fails, exits or will not stop gives a coded error rather than a silent hang. The worker
 * loads compiled code: these tests use dist/ (`npm run build`).
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { VirtualClock } from '../../../src/engine/clock.js';
import { startWorkerReference, workersAvailable } from '../../../src/engine/reference-worker/worker-reference.js';
import { SpecgateError } from '../../../src/errors.js';
import { DatabaseAnswerError } from '../../../src/targets/database/database-errors.js';
import { fromRoot } from '../../../src/paths.js';

const script = pathToFileURL(fromRoot('dist', 'src', 'engine', 'reference-worker', 'worker-main.js'));
const fixtures = pathToFileURL(fromRoot('dist', 'test', 'engine', 'reference-worker', 'fixture-references.js')).href;
const start = (name: string, clock = new VirtualClock(), extra: { stopTimeoutMs?: number; startTimeoutMs?: number } = {}) =>
  startWorkerReference({ module: fixtures, name }, { clock, script, ...extra });

async function nowOf(url: string): Promise<number> {
  const res = await request(url);
  return ((await res.body.json()) as { now: number }).now;
}

async function codeOf(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(SpecgateError);
  return { code: (e as SpecgateError).code, message: (e as SpecgateError).message };
}

describe('a reference in a worker thread', () => {
  it('is available only where the engine runs compiled', () => {
    expect(workersAvailable(script)).toBe(true);
    expect(workersAvailable(new URL('file:///nowhere/worker-main.js'))).toBe(false);
  });

  it('hands back its description, vars, served, exec and user agent', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    const ref = await start('clockReference', clock);
    try {
      const url = String(ref.vars['url']);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(ref.vars['started_at']).toBe(Date.UTC(2026, 0, 1));
      expect(ref.description).toBe(`clock fixture at ${url}`);
      expect(ref.served).toEqual({ listening: url });
      expect(ref.exec).toEqual({ command: process.execPath, args: ['--version'] });
      expect(ref.agent?.kind).toBe('fixture-agent');
      expect(await ref.agent?.perform('now', { echo: 'hi' })).toEqual({ now: Date.UTC(2026, 0, 1), echo: 'hi' });
    } finally {
      await ref.stop();
    }
  });

  it('sees time the engine lets pass on its very next request, and in its user agent', async () => {
    const clock = new VirtualClock(1_000);
    const ref = await start('clockReference', clock);
    try {
      const url = String(ref.vars['url']);
      expect(await nowOf(url)).toBe(1_000);
      let expected = 1_000;
      for (const ms of [1, 900_000, 0, 37, 3_600_000, 5]) {
        await clock.advance(ms);
        expected += ms;
        expect(await nowOf(url)).toBe(expected);
        expect((await ref.agent?.perform('now', {}))?.['now']).toBe(expected);
      }
      // many at once: each request sent after the advance sees it
      for (let i = 0; i < 20; i++) {
        await clock.advance(1);
        const seen = await Promise.all([nowOf(url), nowOf(url)]);
        expect(seen).toEqual([clock.now(), clock.now()]);
      }
    } finally {
      await ref.stop();
    }
  });

  it('stops its server and its thread', async () => {
    const ref = await start('clockReference');
    const url = String(ref.vars['url']);
    expect(typeof (await nowOf(url))).toBe('number');
    await ref.stop();
    await expect(request(url)).rejects.toThrow(/ECONNREFUSED/);
    await ref.stop(); // a second stop does nothing
  });

  it('answers what still waited on it, once stopped, that it was stopped', async () => {
    const ref = await start('clockReference');
    const waiting = ref.agent?.perform('wait', {}) ?? Promise.resolve();
    await ref.stop();
    const stopped = { code: 'SG_TARGET_UNREACHABLE', message: 'the reference clockReference (worker thread) was stopped' };
    expect(await codeOf(waiting)).toEqual(stopped);
    expect(await codeOf(ref.agent?.perform('now', {}) ?? Promise.resolve())).toEqual(stopped);
  });

  it("keeps the code of a user agent's refusal, and hears the case stop", async () => {
    const ref = await start('clockReference');
    try {
      expect(await codeOf(ref.agent?.perform('refuse', {}) ?? Promise.resolve())).toEqual({ code: 'SG_CONFIG', message: 'the fixture agent refuses' });
      const abort = new AbortController();
      const waiting = ref.agent?.perform('wait', {}, abort.signal);
      abort.abort(new SpecgateError('SG_CASE_TIMEOUT', 'case over'));
      expect(await codeOf(waiting ?? Promise.resolve())).toEqual({ code: 'SG_CASE_TIMEOUT', message: 'case over' });
      // anything else thrown comes back as it was thrown, not as a SpecgateError of the worker's making
      const plain = await (ref.agent?.perform('fail-plain', {}) ?? Promise.resolve()).then(() => undefined, (x: unknown) => x);
      expect(plain).not.toBeInstanceOf(SpecgateError);
      expect(plain).toMatchObject({ name: 'TypeError', message: 'connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED' });
      // an action given what cannot cross is refused here, and the worker goes on
      expect((await codeOf(ref.agent?.perform('now', { f: () => 1 }) ?? Promise.resolve())).code).toBe('SG_INTERNAL');
      expect((await ref.agent?.perform('now', {}))?.['now']).toBeTypeOf('number');
    } finally {
      await ref.stop();
    }
  });

  it("runs its document database's commands, refusals as the database's answer, and closes", async () => {
    const ref = await start('documentsReference');
    try {
      const docs = ref.documents;
      expect(docs?.description).toBe('echo store');
      expect(await docs?.command({ find: 'c', filter: { n: 1n } })).toEqual({ ok: 1, echo: { find: 'c', filter: { n: 1n } } });
      const refused = await docs?.command({ refuse: 1 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(DatabaseAnswerError);
      expect((refused as DatabaseAnswerError).toObservation()).toEqual({ code: 'DuplicateKey', number: 11000, message: 'E11000 duplicate key' });
      expect((refused as DatabaseAnswerError).message).toBe(DatabaseAnswerError.refusedCommand({ errmsg: 'E11000 duplicate key', code: 11000, codeName: 'DuplicateKey' }).message);
      await docs?.close();
      expect(await docs?.command({ closed: 1 })).toEqual({ ok: 1, closed: 1 });
    } finally {
      await ref.stop();
    }
  });

  it('gives a coded error when its thread ends while the run uses it', async () => {
    const ref = await start('clockReference');
    const crashed = await codeOf(ref.agent?.perform('crash', {}) ?? Promise.resolve());
    expect(crashed.code).toBe('SG_TARGET_UNREACHABLE');
    expect(crashed.message).toMatch(/clockReference.*ended unexpectedly \(exit code 7\) while the run used it/);
    expect(await codeOf(ref.agent?.perform('now', {}) ?? Promise.resolve())).toEqual(crashed);
    expect(await codeOf(ref.stop())).toEqual(crashed);
  });

  it('passes on the coded error of a reference that fails to start', async () => {
    expect(await codeOf(start('refusingReference'))).toEqual({ code: 'SG_CONFIG', message: 'the fixture refuses to start: give it a port' });
  });

  it('gives SG_TARGET_UNREACHABLE for an uncoded start failure, a missing module or export', async () => {
    const broken = await codeOf(start('brokenReference'));
    expect(broken).toEqual({ code: 'SG_TARGET_UNREACHABLE', message: 'the reference brokenReference (worker thread) could not start: listen EADDRINUSE 127.0.0.1:1' });
    const missing = await codeOf(startWorkerReference({ module: pathToFileURL(fromRoot('dist', 'nowhere.js')).href, name: 'x' }, { clock: new VirtualClock(), script }));
    expect(missing.code).toBe('SG_TARGET_UNREACHABLE');
    expect(missing.message).toMatch(/could not start: Cannot find module .*nowhere\.js/);
    expect(await codeOf(start('noSuchReference'))).toEqual({ code: 'SG_INTERNAL', message: `${fixtures} exports no reference named noSuchReference` });
  });

  it('refuses a reference whose vars cannot cross threads', async () => {
    const e = await codeOf(start('functionVarsReference'));
    expect(e.code).toBe('SG_INTERNAL');
    expect(e.message).toMatch(/functionVarsReference handed back what cannot cross threads/);
  });

  it('ends a thread that does not stop in time', async () => {
    const ref = await start('hangingReference', new VirtualClock(), { stopTimeoutMs: 200 });
    const t0 = Date.now();
    await ref.stop();
    expect(Date.now() - t0).toBeLessThan(3_000);
  });

  it('gives SG_TARGET_TIMEOUT when the reference does not start in time', async () => {
    const e = await codeOf(startWorkerReference({ module: fixtures, name: 'clockReference' }, { clock: new VirtualClock(), script, startTimeoutMs: 1 }));
    expect(e).toEqual({ code: 'SG_TARGET_TIMEOUT', message: 'the reference clockReference (worker thread) did not start within 1 ms' });
  });
});
