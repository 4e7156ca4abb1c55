import { readSync, writeSync } from 'node:fs';

/**
 * Reads all of standard input synchronously (spec A: one request message arrives on stdin and
 * ends with it). Retries on EAGAIN, which a non-blocking pipe can raise; EOF ends the read.
 */
export function readAllStdin(): Buffer {
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        pause(5);
        continue;
      }
      if (code === 'EOF') break;
      throw e;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks);
}

/** Waits `ms` milliseconds without spinning (for a pipe that is full or empty for now). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Writes all of `data` to file descriptor `fd` (1 or 2) synchronously, retrying on EAGAIN as
 * readAllStdin does. Through `fs` rather than process.stdout: for a pipe that stream is a socket,
 * and making one loads Node's net and stream modules, a few ms of every start. Gives false when
 * the reader has gone (EPIPE): nothing more can be written.
 */
export function writeAllSync(fd: number, data: Uint8Array | string): boolean {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let done = 0;
  while (done < bytes.length) {
    try {
      done += writeSync(fd, bytes, done, bytes.length - done);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        pause(1);
        continue;
      }
      if (code === 'EPIPE') return false;
      throw e;
    }
  }
  return true;
}

/** Writes bytes to stdout, then exits with `code` (also when the reader has gone). */
export function writeAndExit(bytes: Uint8Array, code: number): void {
  writeAllSync(1, bytes);
  process.exit(code);
}
