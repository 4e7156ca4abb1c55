/**
 * The reporter contract. Reporters only consume engine events (DESIGN "Layout", dependency
 * rule), so they work the same for a live run and for a replayed event log.
 */
import { lstat, open, realpath, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { constants, fstatSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import type { EngineEvent } from '../engine/events.js';
import { SpecgateError, isSpecgateError } from '../errors.js';
import type { RunResult } from '../engine/model.js';
import { isStreamName, makeFolderNoFollow, refuseLinks } from './output-path.js';

/** Something that turns the engine's event stream into output. */
export interface Reporter {
  /** Called synchronously for every event; must not throw for well-formed events. */
  onEvent(e: EngineEvent): void;
  /** Called once after `run-finish`; writes files (creating parent folders) and flushes streams. */
  finish(): Promise<void>;
}

/**
 * Writes `content` to a sibling temp file and renames it over `path`. The temp file is made
 * new (O_EXCL) and never through a link (O_NOFOLLOW): its name is predictable, so a link
 * planted there must not take the write; and a rename replaces the name itself, never what a
 * link there points to.
 */
async function replaceFile(path: string, content: ReportText): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  let made = false;
  try {
    const file = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
    made = true;
    await writeBatches(file, content);
    await rename(tmp, path);
  } catch (e) {
    if (made) await rm(tmp, { force: true });
    throw e;
  }
}

/**
 * A report's text: one string, or parts in order (a huge report is written as it is made, never
 * held whole).
 */
export type ReportText = string | Iterable<string>;

/** Parts joined into writes of about a megabyte: one write per case would cost a system call each. */
const BATCH_CHARS = 1 << 20;

function* batches(content: ReportText): Generator<string> {
  if (typeof content === 'string') {
    yield content;
    return;
  }
  let held: string[] = [];
  let size = 0;
  for (const part of content) {
    held.push(part);
    size += part.length;
    if (size >= BATCH_CHARS) {
      yield held.join('');
      held = [];
      size = 0;
    }
  }
  if (held.length) yield held.join('');
}

/** Writes `content` to the open `file`, batch by batch, and closes it. */
async function writeBatches(file: FileHandle, content: ReportText): Promise<void> {
  try {
    for (const batch of batches(content)) await file.write(batch, null, 'utf8');
  } finally {
    await file.close();
  }
}

/** Writes `content` to the file or device `path` opened with `flags`. */
async function writeThrough(path: string, content: ReportText, flags: number): Promise<void> {
  await writeBatches(await open(path, flags, 0o666), content);
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
 * is not a regular file (a device, a pipe) is written through and never replaced. A path that is,
 * or passes through, a symbolic link is refused (output-path.ts), and folders are made without
 * following one; only the system's names of this process's streams (`/dev/stdout`, `/dev/fd/3`)
 * are followed, and this process's own stdout or stderr gets the report on that stream.
 * @throws SpecgateError `SG_USAGE` for a link on the way, `SG_CONFIG` when the file cannot be
 * written, with the reason.
 */
export async function writeReportFile(path: string, content: ReportText): Promise<void> {
  try {
    if (isStreamName(path)) return await writeStream(path, content);
    refuseLinks(`--report ${path}`, path);
    const st = await lstat(path).catch(() => undefined);
    if (!st) {
      makeFolderNoFollow(`--report ${path}`, dirname(path), path);
      return await replaceFile(path, content);
    }
    if (st.isFile()) return await replaceFile(path, content);
    await writeThrough(path, content, constants.O_WRONLY | constants.O_NOFOLLOW);
  } catch (e) {
    if (isSpecgateError(e)) throw e;
    const reason = e instanceof Error ? e.message : String(e);
    throw new SpecgateError('SG_CONFIG', `could not write the report ${path}: ${reason}; check the path and the free space, or give another --report path`, { path }, { cause: e });
  }
}

/** A report to a stream by its system name: this process's stdout or stderr through the open stream, anything else through the name. */
async function writeStream(path: string, content: ReportText): Promise<void> {
  const target = await stat(path).catch(() => undefined);
  const own = target && ownStream(target);
  if (own) {
    for (const batch of batches(content)) await new Promise<void>((resolve, reject) => own.write(batch, (e) => (e ? reject(e) : resolve())));
    return;
  }
  if (target?.isFile()) return await replaceFile(await realpath(path), content);
  // a stream's system name is a link by design (/dev/stdout): followed, as `w` does
  await writeThrough(path, content, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC);
}

/**
 * A reporter that renders the final RunResult (carried by `run-finish`) into one file.
 * Without a `run-finish` event (the run aborted before producing a result) finish() writes
 * nothing: a missing report is an honest signal, a fabricated empty one would not be.
 */
export function createFileReporter(path: string, render: (result: RunResult) => ReportText): Reporter {
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
