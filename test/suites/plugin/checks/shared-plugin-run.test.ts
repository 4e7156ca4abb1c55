import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../../src/engine/model.js';
import type { CheckContext, CheckExec, CheckExecResult } from '../../../../src/engine/suite-module.js';
import { encodeResponse } from '../../../../reference/plugin/codec.js';
import { SHARED_ANSWER_BYTES, sharedPluginRun } from '../../../../suites/plugin/checks/support.js';

/**
 * sharedPluginRun with the engine's process runner replaced: each plugin run is a promise the
 * test settles, so the order in which cases start, wait and finish is the test's.
 */

interface Pending {
  spec: CheckExec;
  answer: (stdout: Uint8Array) => void;
}

function harness() {
  const observations = new Map<string, Promise<unknown>>();
  const runs: Pending[] = [];
  const context = (caseId: string, onExchange?: (ex: Exchange) => void): { ctx: CheckContext; exchanges: Exchange[] } => {
    const exchanges: Exchange[] = [];
    const ctx = {
      suite: 'plugin',
      caseId,
      requirements: [],
      vars: { plugin_command: ['protoc-gen-test'] },
      signal: new AbortController().signal,
      observations,
      exchange: (ex: Exchange) => {
        exchanges.push(ex);
        onExchange?.(ex);
      },
      exec: (spec: CheckExec) =>
        new Promise<CheckExecResult>((resolve) => {
          runs.push({
            spec,
            answer: (stdout) => {
              const result = { exitCode: 0, signal: null, stdout, stderr: '', durationMs: 1 };
              const more = spec.describe?.(result) ?? {};
              const exchange: Exchange = { kind: 'exec', summary: `${spec.label}: protoc-gen-test (stdin ${spec.stdin?.length ?? 0} bytes) -> exit 0`, request: more.request, response: more.response };
              exchanges.push(exchange);
              resolve({ ...result, exchange });
            },
          });
        }),
    } as unknown as CheckContext;
    return { ctx, exchanges };
  };
  return { observations, runs, context };
}

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));
const REQUEST = new Uint8Array([0x0a, 0x04, 0x61, 0x2e, 0x70, 0x62]);
const small = encodeResponse({ file: [{ name: 'a.txt', content: 'a\n' }] });
const big = encodeResponse({ file: [{ name: 'big.txt', content: 'x'.repeat(SHARED_ANSWER_BYTES + 1) }] });
const labelOf = (ex: Exchange | undefined): unknown => (ex?.request as { label?: unknown } | undefined)?.label;

describe('sharedPluginRun', () => {
  it('shows a shared run to each case under the label that case gave its request', async () => {
    const h = harness();
    const a = h.context('first');
    const b = h.context('second');
    const ranA = sharedPluginRun(a.ctx, REQUEST, 'fixture shop', undefined);
    const ranB = sharedPluginRun(b.ctx, REQUEST, 'shop fixture, file_to_generate shop.proto', undefined);
    await flush();
    expect(h.runs).toHaveLength(1);
    h.runs[0]?.answer(small);
    const [runA, runB] = await Promise.all([ranA, ranB]);
    expect(runA.exchange.summary).toMatch(/^fixture shop: /);
    expect(labelOf(runA.exchange)).toBe('fixture shop');
    expect(runB.exchange.summary).toMatch(/^shop fixture, file_to_generate shop\.proto: protoc-gen-test/);
    expect(labelOf(runB.exchange)).toBe('shop fixture, file_to_generate shop.proto');
    expect(b.exchanges.map((ex) => [ex.summary.split(':')[0], labelOf(ex)])).toEqual([['shop fixture, file_to_generate shop.proto', 'shop fixture, file_to_generate shop.proto']]);
    expect(a.exchanges.map(labelOf)).toEqual(['fixture shop']);
    // later rounds are runs of their own, named as such
    const round2 = sharedPluginRun(b.ctx, REQUEST, 'shop fixture', undefined, 2);
    await flush();
    h.runs[1]?.answer(small);
    expect(labelOf((await round2).exchange)).toBe('shop fixture, run 2');
  });

  it('drops a too large answer only from its own entry, never from a newer run under the same key', async () => {
    const h = harness();
    const key = (): string | undefined => [...h.observations.keys()][0];
    const a = h.context('first');
    let third: Promise<unknown> | undefined;
    // while the second case takes the first run's exchanges, the first run's entry is dropped and
    // a third case starts a run of its own under the same key
    const b = h.context('second', () => {
      if (third) return;
      h.observations.delete(key() ?? '');
      third = sharedPluginRun(h.context('third').ctx, REQUEST, 'fixture shop', undefined);
    });
    const ranA = sharedPluginRun(a.ctx, REQUEST, 'fixture shop', undefined);
    const ranB = sharedPluginRun(b.ctx, REQUEST, 'fixture shop', undefined);
    await flush();
    expect(h.runs).toHaveLength(1);
    h.runs[0]?.answer(big);
    await Promise.all([ranA, ranB]);
    expect(third).toBeDefined();
    expect(h.runs).toHaveLength(2);
    // the third case's run, still under way, is what a fourth case waits for
    expect(h.observations.size).toBe(1);
    const fourth = sharedPluginRun(h.context('fourth').ctx, REQUEST, 'fixture shop', undefined);
    await flush();
    expect(h.runs).toHaveLength(2);
    h.runs[1]?.answer(small);
    await Promise.all([third, fourth]);
  });

  it('drops its own entry when the answer is too large to keep', async () => {
    const h = harness();
    const ran = sharedPluginRun(h.context('first').ctx, REQUEST, 'fixture shop', undefined);
    await flush();
    h.runs[0]?.answer(big);
    await ran;
    expect(h.observations.size).toBe(0);
  });
});
