/**
 * The console's summary waits for the run's files: its last line is the exit code the process
 * ends with, 2 when an output could not be written (an interrupted run keeps its own).
 */
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/engine/events.js';
import type { RunResult, RunSummary } from '../../src/engine/model.js';
import { SpecgateError } from '../../src/errors.js';
import { finalSummary, holdSummary } from '../../src/reporting/held-summary.js';
import type { Reporter } from '../../src/reporting/reporter.js';

const summary = (exitCode: RunSummary['exitCode']): RunSummary => ({ exitCode, verdict: 'conformant at the gating level (MUST)' }) as RunSummary;
const unwritten = [new SpecgateError('SG_CONFIG', 'could not write the report /dev/full: ENOSPC')];

describe('finalSummary', () => {
  it('is the run\'s own when everything was written', () => {
    const s = summary(1);
    expect(finalSummary(s, [])).toBe(s);
  });

  it('turns the exit code into the error\'s, saying why in the verdict line', () => {
    expect(finalSummary(summary(0), unwritten)).toMatchObject({ exitCode: 2, verdict: 'conformant at the gating level (MUST); but an output could not be written (the error above says which and why)' });
    expect(finalSummary(summary(1), [...unwritten, ...unwritten])).toMatchObject({ exitCode: 2, verdict: expect.stringContaining('but 2 outputs could not be written') });
  });

  it('keeps 130 and 143: an interrupted run was stopped, whatever else went wrong', () => {
    expect(finalSummary(summary(130), unwritten).exitCode).toBe(130);
    expect(finalSummary(summary(143), unwritten).exitCode).toBe(143);
  });
});

describe('holdSummary', () => {
  it('passes every event but run-finish on, and prints the kept run with the final code on release', async () => {
    const seen: EngineEvent[] = [];
    let finished = false;
    const inner: Reporter = { onEvent: (e) => void seen.push(e), finish: async () => void (finished = true) };
    const held = holdSummary(inner);
    const run = { summary: summary(0) } as RunResult;
    held.reporter.onEvent({ type: 'log', level: 'warn', message: 'w' });
    held.reporter.onEvent({ type: 'run-finish', result: run });
    await held.reporter.finish();
    expect(seen.map((e) => e.type)).toEqual(['log']);
    expect(await held.release(unwritten)).toBe(2);
    const last = seen.at(-1);
    expect(last?.type === 'run-finish' ? last.result.summary.exitCode : undefined).toBe(2);
    expect(finished).toBe(true);
  });
});
