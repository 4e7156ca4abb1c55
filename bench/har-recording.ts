import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { probed, readPeak, writePreload } from './cli-runs.js';
import { judgeValue } from './goals.js';
import { fromRoot } from '../src/paths.js';

/**
 * Reading a large HAR recording (`--target har:<file>`), side by side in one run: the streamed
 * loader (src/targets/har/load-har.ts, one entry at a time) against reading the file whole and
 * parsing it at once (what a plain JSON.parse of the file costs, and what the loader did before
 * it streamed). Each in a process of its own; peak resident memory and wall time.
 *
 * The recording is an app's session: small JSON API exchanges and, in between, 192 KB images
 * as base64 — most of a browser's recording is such bodies. `BENCH_HAR_MB` sets its size
 * (default 300). Goal: the streamed peak under 400 MB and well under the file's size.
 */
const SIZE_MB = Number(process.env['BENCH_HAR_MB'] ?? 300);
const LIMIT_MB = 400;
/** From this size on, the streamed peak must also stay under the file's size. */
const BY_SIZE_FROM_MB = 200;

function entry(url: string, contentType: string, text: string, encoding?: string): string {
  const content: Record<string, unknown> = { size: text.length, mimeType: contentType, text, ...(encoding ? { encoding } : {}) };
  return JSON.stringify({
    startedDateTime: '2025-01-01T00:00:00.000Z',
    time: 3,
    request: { method: 'GET', url, httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'Authorization', value: 'Bearer t' }], queryString: [], headersSize: -1, bodySize: 0 },
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'Content-Type', value: contentType }], content, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { send: 0, wait: 2, receive: 1 },
  });
}

function writeRecording(file: string, mb: number): number {
  const api = entry('http://127.0.0.1:9/notes/n1', 'application/json', JSON.stringify({ id: 'n1', title: 'groceries', body: 'milk' }));
  const image = entry('http://127.0.0.1:9/logo.png', 'image/png', Buffer.alloc(192 * 1024, 0x5a).toString('base64'), 'base64');
  const fd = openSync(file, 'w');
  let entries = 0;
  try {
    writeSync(fd, '{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"entries":[');
    for (let written = 0; written < mb * 1024 * 1024; entries += 4) {
      const piece = `${entries ? ',' : ''}${api},${api},${api},${image}`;
      writeSync(fd, piece);
      written += piece.length;
    }
    writeSync(fd, ']}}');
  } finally {
    closeSync(fd);
  }
  return entries;
}

/** Runs `script` (an ES module's text) in a node process of its own: its peak RSS (MB, the preload of cli-runs.ts) and wall time. */
function measured(dir: string, preload: string, script: string): Promise<{ peakMb: number; ms: number; out: string }> {
  const started = performance.now();
  const { peakFile, env } = probed(dir, preload, process.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'], env });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve({ peakMb: readPeak(peakFile).kb / 1024, ms: performance.now() - started, out }));
  });
}

export async function runBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-bench-har-'));
  try {
    const file = join(dir, 'big.har');
    const entries = writeRecording(file, SIZE_MB);
    const sizeMb = statSync(file).size / 1024 / 1024;
    const loader = pathToFileURL(fromRoot('dist/src/targets/har/load-har.js')).href;
    const preload = writePreload(dir);
    const streamed = await measured(dir, preload, `const { loadHar } = await import(${JSON.stringify(loader)}); const r = loadHar(${JSON.stringify(file)}); console.log('EXCHANGES', r.exchanges.length);`);
    const whole = await measured(dir, preload, `import { readFileSync } from 'node:fs'; const d = JSON.parse(readFileSync(${JSON.stringify(file)}, 'utf8')); console.log('EXCHANGES', d.log.entries.length);`);
    const count = (out: string): string => /EXCHANGES (\d+)/.exec(out)?.[1] ?? 'none (failed)';
    console.log(`  recording of ${sizeMb.toFixed(0)} MB, ${entries.toLocaleString('en')} entries`);
    console.log(`  streamed, entry by entry   peak ${streamed.peakMb.toFixed(0).padStart(5)} MB  ${(streamed.ms / 1000).toFixed(1).padStart(5)} s  exchanges ${count(streamed.out)}`);
    console.log(`  whole file, one JSON.parse peak ${whole.peakMb.toFixed(0).padStart(5)} MB  ${(whole.ms / 1000).toFixed(1).padStart(5)} s  entries ${count(whole.out)}`);
    // under the file's size says something only for a file well above what a bare node process takes (the 50 MB of --quick is not)
    const bySize = sizeMb >= BY_SIZE_FROM_MB;
    const ok = streamed.peakMb < (bySize ? Math.min(LIMIT_MB, sizeMb) : LIMIT_MB);
    const goal = bySize ? `< ${LIMIT_MB} MB and < the file's ${sizeMb.toFixed(0)} MB` : `< ${LIMIT_MB} MB`;
    console.log(`  streamed peak ${goal}: ${judgeValue(`HAR recording of ${sizeMb.toFixed(0)} MB read entry by entry, peak memory`, `${streamed.peakMb.toFixed(0)} MB`, goal, ok)} (${(whole.peakMb / streamed.peakMb).toFixed(1)}x less than whole)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
