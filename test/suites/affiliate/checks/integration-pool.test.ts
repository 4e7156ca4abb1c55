import { describe, expect, it } from 'vitest';
import { StagePool } from '../../../../suites/affiliate/checks/integration-pool.js';

interface FakeStage {
  id: number;
  broken: boolean;
  stopped: boolean;
}

/** A pool of numbered fake stages that records what was started and stopped. */
function fakePool(size: number, idleMs = 50) {
  const started: FakeStage[] = [];
  const pool = new StagePool<FakeStage>({
    size,
    idleMs,
    start: async () => {
      const s = { id: started.length + 1, broken: false, stopped: false };
      started.push(s);
      await new Promise((r) => setTimeout(r, 5));
      return s;
    },
    reusable: (s) => !s.broken,
    stop: async (s) => {
      s.stopped = true;
    },
  });
  return { pool, started };
}

const never = new AbortController().signal;
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('StagePool: launched integrations shared by the cases of a run', () => {
  it('starts no more stages than its size, gives each to one user at a time, and reuses them', async () => {
    const { pool, started } = fakePool(2);
    const inUse = new Set<number>();
    let most = 0;
    await Promise.all(
      Array.from({ length: 7 }, () =>
        pool.use(never, async (s) => {
          expect(inUse.has(s.id), `stage ${s.id} given to two users at once`).toBe(false);
          inUse.add(s.id);
          most = Math.max(most, inUse.size);
          await pause(10);
          inUse.delete(s.id);
        }),
      ),
    );
    expect(started.length).toBe(2);
    expect(most).toBe(2);
    await pool.close();
    expect(started.every((s) => s.stopped)).toBe(true);
    expect(pool.size).toBe(0);
  });

  it('stops a stage that cannot be reused and starts another for the next user', async () => {
    const { pool, started } = fakePool(1);
    await pool.use(never, async (s) => {
      s.broken = true;
    });
    await pool.use(never, async (s) => {
      expect(s.id).toBe(2);
    });
    expect(started.map((s) => s.stopped)).toEqual([true, false]);
    await pool.close();
  });

  it('a waiting user is woken to start a stage when the one it waited for was stopped', async () => {
    const { pool, started } = fakePool(1);
    const first = pool.use(never, async (s) => {
      await pause(20);
      s.broken = true;
    });
    const second = pool.use(never, async (s) => s.id);
    await first;
    expect(await second).toBe(2);
    expect(started.length).toBe(2);
    await pool.close();
  });

  it('stops the stages once none has been used for its idle time', async () => {
    const { pool, started } = fakePool(2, 30);
    await Promise.all([pool.use(never, () => pause(5)), pool.use(never, () => pause(5))]);
    expect(started.some((s) => s.stopped)).toBe(false);
    await pause(150);
    expect(started.map((s) => s.stopped)).toEqual([true, true]);
    expect(pool.size).toBe(0);
  });

  it('a user whose case is stopped while it waits gets an error and no stage; the others go on', async () => {
    const { pool } = fakePool(1);
    const holder = pool.use(never, () => pause(50));
    const ac = new AbortController();
    const waiting = pool.use(ac.signal, async () => 'got one');
    const next = pool.use(never, async (s) => s.id);
    ac.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'SG_CASE_TIMEOUT' });
    await holder;
    expect(await next).toBe(1);
    await pool.close();
  });

  it('a failed start frees its place for the next user', async () => {
    let calls = 0;
    const pool = new StagePool<number>({
      size: 1,
      idleMs: 10,
      start: async () => {
        calls++;
        if (calls === 1) throw new Error('no start');
        return calls;
      },
      reusable: () => true,
      stop: async () => undefined,
    });
    await expect(pool.use(never, async (s) => s)).rejects.toThrow('no start');
    expect(await pool.use(never, async (s) => s)).toBe(2);
    await pool.close();
  });
});
