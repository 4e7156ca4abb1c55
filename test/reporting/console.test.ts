import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/engine/events.js';
import type { CaseResult } from '../../src/engine/model.js';
import { createConsoleReporter } from '../../src/reporting/console.js';
import { eventsFor, makeRunResult, REPLAY } from '../fixtures/reporting/run-result.js';

/** A stream that records what is written, posing as a TTY or not. */
function capture(isTTY: boolean): { stream: Writable & { isTTY: boolean; columns: number }; text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  return { stream: Object.assign(w, { isTTY, columns: 80 }), text: () => chunks.join('') };
}

async function runConsole(opts: { tty?: boolean; color?: boolean; verbose?: boolean } = {}): Promise<string> {
  const out = capture(opts.tty ?? false);
  const r = createConsoleReporter({ stream: out.stream, color: opts.color ?? false, verbose: opts.verbose ?? false });
  for (const e of eventsFor(makeRunResult())) r.onEvent(e);
  await r.finish();
  return out.text();
}

/** A run of `n` passing cases where each case takes `stepMs` on the injected clock. */
function longRun(n: number): EngineEvent[] {
  const events: EngineEvent[] = [
    { type: 'run-start', startedAt: '2025-01-01T00:00:00Z', seed: 1, suites: [{ name: 'big', cases: n, target: 't' }] },
    { type: 'suite-start', suite: 'big', target: 't', requirements: [], cases: [] },
  ];
  for (let i = 0; i < n; i++) {
    const result: CaseResult = { suite: 'big', id: `c${i}`, requirements: [], outcome: 'passed', failures: [], exchanges: [], durationMs: 1 };
    events.push({ type: 'case-finish', suite: 'big', result });
  }
  return events;
}

function feed(events: EngineEvent[], tty: boolean, stepMs: number): string {
  const out = capture(tty);
  let t = 0;
  const r = createConsoleReporter({ stream: out.stream, now: () => t });
  for (const e of events) {
    r.onEvent(e);
    if (e.type === 'case-finish') t += stepMs;
  }
  return out.text();
}

describe('console reporter: failures', () => {
  it('prints each failure h2spec style: requirement, expected, actual, replay, in that order', async () => {
    const text = await runConsole();
    const block = text.slice(text.indexOf('× oauth/device-poll-too-fast'), text.indexOf('× oauth/redirect-uri-rules'));
    // the exchange judged: request and answer, then a curl line sending the request again
    const order = ['-> OAUTH-DEVICE-SLOW-DOWN (MUST): Polling sooner', 'body.error differs', 'Expected: {', 'Actual: {', 'Request: POST', 'Answer: ', 'Try: curl '].map((s) => block.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(block).toContain('"id": 9007199254740993');

    const prop = text.slice(text.indexOf('× oauth/redirect-uri-rules'));
    expect(prop.indexOf('Actual:')).toBeLessThan(prop.indexOf(`Replay: ${REPLAY}`));
    expect(prop).toContain('Seed: 1337, path: 7:2:0');
  });

  it('reports errored cases, stale cases and the suite fault, but not baseline-expected failures', async () => {
    const text = await runConsole();
    expect(text).toContain('! oauth/user-code-charset');
    expect(text).toContain('SG_TARGET_TIMEOUT: the target did not answer');
    expect(text).toMatch(/\? oauth\/state-echoed: passes, but the baseline expects it\s+to fail/);
    expect(text).toContain('suite plugin failed: SG_TARGET_UNREACHABLE');
    expect(text).not.toContain('pkce-plain-rejected');
    expect(await runConsole({ verbose: true })).toContain('~ oauth/pkce-plain-rejected: expected failure (baseline)');
  });

  it('writes no control characters from payloads and no ANSI unless asked', async () => {
    const plain = await runConsole();
    expect(plain).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(await runConsole({ color: true })).toMatch(/\u001b\[31m/);
  });
});

describe('console reporter: summary', () => {
  it('tabulates requirements by suite and level, lists baseline housekeeping, ends with the verdict', async () => {
    const text = await runConsole();
    const lines = text.split('\n');
    const at = lines.indexOf('  oauth');
    expect(at).toBeGreaterThan(0);
    //                       passed failed untested excluded exp-fail n/a
    expect(lines[at + 1]?.split(/\s+/).filter(Boolean)).toEqual(['MUST', '3', '2', '1', '0', '0', '0', '0']);
    expect(lines[at + 2]?.split(/\s+/).filter(Boolean)).toEqual(['SHOULD', '0', '0', '1', '0', '0', '1', '0']);
    expect(lines[at + 3]?.split(/\s+/).filter(Boolean)).toEqual(['MAY', '0', '0', '0', '0', '1', '0', '0']);
    expect(lines.find((l) => l.startsWith('  total'))?.split(/\s+/).filter(Boolean)).toEqual(['total', '3', '2', '3', '0', '1', '1', '0']);
    expect(text).toContain('  - OAUTH-STATE-ECHO: was broken in 1.2');
    expect(text).toContain('  - oauth/old-case (expired 2024-06-30): tracked in VND-99');
    expect(lines.slice(-3)).toEqual(['NOT CONFORMANT: 2 MUST requirements failed (oauth)', 'exit code 1: conformance failures', '']);
  });

  it('fits the summary in 80 columns, but for replay commands (never cut: they must stay copy-pasteable)', async () => {
    const text = await runConsole();
    const summary = text.slice(text.indexOf('Summary ('));
    for (const line of summary.split('\n').filter((l) => !l.startsWith('      replay: '))) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('leads the summary with the root failures: each with its replay command first, then what it blocks', async () => {
    const text = await runConsole();
    const summary = text.slice(text.indexOf('Summary ('));
    const roots = summary.indexOf('Root failures (');
    expect(roots).toBeGreaterThan(0);
    expect(roots).toBeLessThan(summary.indexOf('Cases'));
    const block = summary.slice(roots, summary.indexOf('Cases'));
    expect(block).toMatch(/× oauth OAUTH-[A-Z-]+ \(MUST\)/);
    expect(block).toMatch(/replay: specgate run/);
  });
});

describe('console reporter: progress', () => {
  it('on a TTY redraws one status line about 10 times a second and clears it at the end', async () => {
    const out = capture(true);
    let t = 0;
    const r = createConsoleReporter({ stream: out.stream, now: () => t });
    for (const e of longRun(1000)) {
      r.onEvent(e);
      if (e.type === 'case-finish') t += 1; // 1000 cases in one second
    }
    const draws = out.text().split('\r\u001b[2K[big]').length - 1;
    expect(draws).toBeGreaterThanOrEqual(10);
    expect(draws).toBeLessThanOrEqual(12);
    // The last count is throttled away at first, then drawn by the trailing update.
    expect(out.text()).not.toContain('[big] 1000/1000 cases');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(out.text().endsWith('[big] 1000/1000 cases, 0 failed')).toBe(true);
    await r.finish();
    expect(out.text().endsWith('\r\u001b[2K')).toBe(true);
  });

  it('without a TTY prints nothing for a short run and a line at most every 5 s for a long one', () => {
    expect(feed(longRun(100), false, 10)).toBe('');
    const long = feed(longRun(1000), false, 100); // 100 s
    const lines = long.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(19);
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(lines[0]).toMatch(/^\[big\] \d+\/1000 cases, 0 failed$/);
    expect(long).not.toContain('\r');
  });
});
