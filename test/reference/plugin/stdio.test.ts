import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMONJS_BUILD } from '../../../reference/plugin/launcher.js';

// writeAllSync writes to a process's own stdout and stderr: it runs in a child, from the build.
const stdio = join(COMMONJS_BUILD, 'stdio.js');
const child = (body: string): string[] => ['-e', `const { writeAllSync, writeAndExit } = require(${JSON.stringify(stdio)});\n${body}`];

describe.skipIf(!existsSync(stdio))('writeAllSync and writeAndExit', () => {
  it('write every byte, in order, through pipes much smaller than the data', () => {
    // 3 MB on stdout (a pipe holds 64 KB), text with multi-byte characters on stderr
    const r = spawnSync(process.execPath, child(`
      const big = Buffer.alloc(3 * 1024 * 1024);
      for (let i = 0; i < big.length; i++) big[i] = (i * 7) & 0xff;
      if (!writeAllSync(2, 'grüße ✓\\n')) process.exit(9);
      writeAndExit(big, 4);
    `), { maxBuffer: 16 * 1024 * 1024 });
    expect(r.status).toBe(4);
    expect(r.stdout.length).toBe(3 * 1024 * 1024);
    expect(r.stdout.every((b, i) => b === ((i * 7) & 0xff))).toBe(true);
    expect(r.stderr.toString('utf8')).toBe('grüße ✓\n');
  });

  it('give up when the reader has gone, and writeAndExit still exits with its code', async () => {
    const p = spawn(process.execPath, child(`
      require('node:fs').writeSync(2, 'ready\\n');
      // wait until the reader has closed its end: then every write fails with EPIPE
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      const ok = writeAllSync(1, Buffer.alloc(1024 * 1024, 1));
      require('node:fs').writeSync(2, ok ? 'written\\n' : 'reader gone\\n');
      writeAndExit(Buffer.alloc(1024 * 1024, 2), 6);
    `), { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.startsWith('ready')) p.stdout.destroy();
    });
    const [code] = (await once(p, 'close')) as [number | null];
    expect(err).toBe('ready\nreader gone\n');
    expect(code).toBe(6);
  });
});
