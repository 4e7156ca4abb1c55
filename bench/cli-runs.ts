import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fromRoot } from '../src/paths.js';

/** What benchmarks that run the built CLI share: a peak-memory probe, a run measured, a generated suite. */

export const BIN = fromRoot('bin/specgate.js');

/**
 * The preload's peak: on Linux the high-water mark of the process's own resident memory since its
 * program started (VmHWM of /proc/self/status). Not getrusage's maxRSS there: a process started
 * by fork and exec carries into that figure the resident memory its parent had when it forked (a
 * benchmark process grown to 314 MB made every process it measured peak at 314 MB or more).
 * Elsewhere maxRSS, the only figure there is.
 */
const PEAK_KB = `(() => {
  try {
    const m = /^VmHWM:\\s*(\\d+) kB$/m.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {}
  return process.resourceUsage().maxRSS;
})()`;

/**
 * Writes the preload that records, for the process given SG_PEAK_FILE (not its children), its
 * peak RSS (kB, see {@link PEAK_KB}) and the CPU time it used (µs, user and system): on a shared
 * machine CPU time says what a run cost where wall time also says what else ran.
 */
export function writePreload(dir: string): string {
  const file = join(dir, 'peak-rss.cjs');
  writeFileSync(
    file,
    `const out = process.env.SG_PEAK_FILE;
if (out) {
  delete process.env.SG_PEAK_FILE;
  process.on('exit', () => {
    const u = process.resourceUsage();
    require('node:fs').writeFileSync(out, ${PEAK_KB} + ' ' + (u.userCPUTime + u.systemCPUTime));
  });
}
`,
  );
  return file;
}

/**
 * What a process to measure starts with: `base` plus the preload (and `extraNodeOptions`) in
 * NODE_OPTIONS and a fresh file in `dir` for it to write to, read back with {@link readPeak}.
 */
export function probed(dir: string, preload: string, base: NodeJS.ProcessEnv, extraNodeOptions = ''): { peakFile: string; env: NodeJS.ProcessEnv } {
  const peakFile = join(dir, `peak-${Math.random().toString(36).slice(2)}.txt`);
  return { peakFile, env: { ...base, SG_PEAK_FILE: peakFile, NODE_OPTIONS: `--require ${preload} ${extraNodeOptions}` } };
}

/** The peak RSS (kB) and CPU time (µs) the preload wrote to `file`, NaN each when it wrote none. */
export function readPeak(file: string): { kb: number; cpuUs: number } {
  const [kb, cpuUs] = existsSync(file) ? readFileSync(file, 'utf8').split(' ').map(Number) : [];
  return { kb: kb ?? NaN, cpuUs: cpuUs ?? NaN };
}

export interface Measured {
  code: number | null;
  /** Peak resident memory of the specgate process, MB. */
  peakMb: number;
  /** Wall time of the whole CLI run, ms. */
  ms: number;
  /** CPU time of the specgate process, ms. */
  cpuMs: number;
  stderr: string;
}

/** Runs the CLI with `args` in `dir` and returns its exit code, wall time and peak RSS. */
export function measure(dir: string, preload: string, args: string[], opts: { extraNodeOptions?: string } = {}): Promise<Measured> {
  const { peakFile, env } = probed(dir, preload, { ...process.env, NO_COLOR: '1' }, opts.extraNodeOptions);
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => {
      const { kb, cpuUs } = readPeak(peakFile);
      resolve({ code, peakMb: kb / 1024, ms: performance.now() - start, cpuMs: cpuUs / 1000, stderr });
    });
  });
}

export function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/**
 * A suite module of `count` one-request cases (`GET ${base}/item/N`, expecting 200 and id 42),
 * written in files of 10,000 cases; each passes against {@link itemServer}.
 */
export function writeBulkSuite(dir: string, count: number): string {
  const suiteDir = join(dir, `bulk-suite-${count}`);
  mkdirSync(join(suiteDir, 'cases'), { recursive: true });
  writeFileSync(join(suiteDir, 'suite.yaml'), 'vars:\n  base: { description: "the item service" }\n');
  writeFileSync(join(suiteDir, 'requirements.yaml'), '- id: BULK-ITEM\n  level: MUST\n  source: bench#item\n  text: GET /item/N answers the item.\n');
  const perFile = 10_000;
  for (let f = 0; f * perFile < count; f++) {
    const cases: string[] = [];
    for (let i = f * perFile; i < Math.min(count, (f + 1) * perFile); i++)
      cases.push(`- id: item-${i}\n  requirements: [BULK-ITEM]\n  steps:\n    - request: { url: "\${base}/item/${i}" }\n      expect: { status: 200, body: { id: 42 } }\n`);
    writeFileSync(join(suiteDir, 'cases', `items-${f}.yaml`), cases.join(''));
  }
  const module = join(dir, `bulk-suite-${count}.mjs`);
  writeFileSync(module, `export const suite = { name: 'bulk', title: 'bulk cases', dir: ${JSON.stringify(suiteDir)} };\n`);
  return module;
}

/** The service the bulk suite's cases pass against. */
export function itemServer(): Server {
  const body = '{"id":42,"name":"widget"}';
  return createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body));
}
