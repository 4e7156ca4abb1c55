import { readSync } from 'node:fs';

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
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
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

/** Writes bytes to stdout, then exits with `code` once they are flushed. */
export function writeAndExit(bytes: Uint8Array, code: number): void {
  process.stdout.write(bytes, () => process.exit(code));
}
