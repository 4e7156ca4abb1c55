/**
 * The reporter contract. Reporters only consume engine events (DESIGN "Layout", dependency
 * rule), so they work the same for a live run and for a replayed event log.
 */
import { lstat, mkdir, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { fstatSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import type { EngineEvent } from '../engine/events.js';
import { SpecgateError } from '../errors.js';
import type { RunResult } from '../engine/model.js';

/** Something that turns the engine's event stream into output. */
export interface Reporter {
  /** Called synchronously for every event; must not throw for well-formed events. */
  onEvent(e: EngineEvent): void;
  /** Called once after `run-finish`; writes files (creating parent folders) and flushes streams. */
  finish(): Promise<void>;
}

/** Writes `content` to a sibling temp file and renames it over `path`. */
async function replaceFile(path: string, content: string): Promise<void> {
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
 * This process's stdout or stderr when `file` is the same file (`/dev/stdout`, `/dev/fd/2`):
 * written through the open stream, since a socket cannot be opened again by path and a
 * redirected output file would lose what the console already wrote if it were replaced.
 */
function ownStream(file: Stats): NodeJS.WriteStream | undefined {
  for (const [fd, stream] of [[1, process.stdout], [2, process.stderr]] as const) {
    try {
      const st = fstatSync(fd);
      if (st.dev === file.dev && st.ino === file.ino) return stream;
    } catch {
      // that descriptor is closed: nothing to compare with
    }
  }
  return undefined;
}

/**
 * Writes `content` to `path`, creating parent folders. A new or regular file is written to a
 * sibling temp file and renamed, so a CI step never picks up half a report after a crash. What
 * is not a regular file (a device, a pipe) is written through and never replaced; this
 * process's own stdout or stderr gets the report on that stream; a symbolic link stays a link
 * and the file it points to gets the report.
 * @throws SpecgateError `SG_CONFIG` when the file cannot be written, with the reason.
 */
export async function writeReportFile(path: string, content: string): Promise<void> {
  try {
    const link = await lstat(path).catch(() => undefined);
    if (!link) {
      await mkdir(dirname(path), { recursive: true });
      return await replaceFile(path, content);
    }
    const target = await stat(path).catch(() => undefined);
    const own = target && ownStream(target);
    if (own) return await new Promise<void>((resolve, reject) => own.write(content, (e) => (e ? reject(e) : resolve())));
    if (target?.isFile()) return await replaceFile(link.isSymbolicLink() ? await realpath(path) : path, content);
    await writeFile(path, content, 'utf8');
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new SpecgateError('SG_CONFIG', `could not write the report ${path}: ${reason}; check the path and the free space, or give another --report path`, { path }, { cause: e });
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
