/**
 * The reporter contract. Reporters only consume engine events (DESIGN "Layout", dependency
 * rule), so they work the same for a live run and for a replayed event log.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EngineEvent } from '../engine/events.js';
import type { RunResult } from '../engine/model.js';

/** Something that turns the engine's event stream into output. */
export interface Reporter {
  /** Called synchronously for every event; must not throw for well-formed events. */
  onEvent(e: EngineEvent): void;
  /** Called once after `run-finish`; writes files (creating parent folders) and flushes streams. */
  finish(): Promise<void>;
}

/**
 * Writes `content` to `path`, creating parent folders. Written to a sibling temp file and
 * renamed, so a CI step never picks up half a report after a crash.
 */
export async function writeReportFile(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, content, 'utf8');
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/**
 * A reporter that renders the final RunResult (carried by `run-finish`) into one file.
 * Without a `run-finish` event (the run aborted before producing a result) finish() writes
 * nothing: a missing report is an honest signal, a fabricated empty one would not be.
 */
export function createFileReporter(path: string, render: (result: RunResult) => string): Reporter {
  let result: RunResult | undefined;
  return {
    onEvent(e) {
      if (e.type === 'run-finish') result = e.result;
    },
    async finish() {
      if (result === undefined) return;
      await writeReportFile(path, render(result));
    },
  };
}
