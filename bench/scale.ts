import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { judgeValue } from './goals.js';
import { itemServer, listen, measure, writeBulkSuite, writePreload, type Measured } from './cli-runs.js';

/**
 * Cost as a run grows: 2,000, 20,000 and 200,000 generated one-request cases (`BENCH_SCALE`
 * lists other sizes), each a whole `specgate run` of the built CLI against a local service,
 * writing the JSON report. A run of one case gives the fixed cost (start-up, loading), which is
 * taken off the others: printed per size are the CPU time (of the specgate process: what else
 * runs on a shared machine does not count) and the peak memory each case adds. Goals:
 * nothing grows faster than the cases — the time a case adds at the largest size within 1.1×
 * of that at the smallest, and the memory a case adds at the largest within 1.1× of that at the
 * middle size (what a case keeps for the report, the same at every size).
 */
const SIZES = (process.env['BENCH_SCALE'] ?? '2000,20000,200000').split(',').map(Number);
const GROWTH_GOAL = 1.1;

export async function runBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-bench-scale-'));
  let server: Server | undefined;
  try {
    const preload = writePreload(dir);
    server = itemServer();
    const base = await listen(server);
    const profile = join(dir, 'bulk.yaml');
    writeFileSync(profile, stringify({ suites: { bulk: { vars: { base } } } }));
    const runOf = async (size: number): Promise<Measured> => {
      const module = writeBulkSuite(dir, size);
      const report = join(dir, `scale-${size}.json`);
      const m = await measure(dir, preload, ['run', '--suite-module', module, '--suite', 'bulk', '--target', profile, '--no-shrink', '--report', `json=${report}`]);
      if (m.code !== 0) throw new Error(`run of ${size} cases: exit ${m.code}: ${m.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      rmSync(report, { force: true });
      return m;
    };
    const fixed = await runOf(1);
    console.log(`  fixed cost (a run of one case): ${(fixed.cpuMs / 1000).toFixed(1)} s CPU, peak ${fixed.peakMb.toFixed(0)} MB`);
    const rows: { size: number; usPerCase: number; kbPerCase: number }[] = [];
    for (const size of SIZES) {
      const m = await runOf(size);
      const usPerCase = ((m.cpuMs - fixed.cpuMs) * 1000) / (size - 1);
      const kbPerCase = ((m.peakMb - fixed.peakMb) * 1024) / (size - 1);
      rows.push({ size, usPerCase, kbPerCase });
      console.log(`  ${size.toLocaleString('en').padStart(8)} cases: ${(m.ms / 1000).toFixed(1).padStart(6)} s wall, ${(m.cpuMs / 1000).toFixed(1).padStart(6)} s CPU, ${usPerCase.toFixed(0).padStart(4)} µs CPU a case; peak ${m.peakMb.toFixed(0).padStart(4)} MB, ${kbPerCase.toFixed(2)} KB a case`);
    }
    const first = rows[0];
    const middle = rows[Math.floor((rows.length - 1) / 2)];
    const last = rows[rows.length - 1];
    if (!first || !middle || !last || first === last) return;
    // against the smallest size (the goal as set) and the middle one (where start-up and JIT no longer flatter the large runs)
    const time = last.usPerCase / first.usPerCase;
    const timeMiddle = last.usPerCase / middle.usPerCase;
    const memory = last.kbPerCase / middle.kbPerCase;
    // a ratio of figures that are not both above zero (noise at a small size, a peak not read) measures nothing: not met
    const measurable = (a: number, b: number): boolean => Number.isFinite(a) && Number.isFinite(b) && a > 0 && b > 0;
    const judged = (r: number, ok: boolean, what: string): string => `(goal <= ${GROWTH_GOAL}) ${judgeValue(what, ok ? `${r.toFixed(2)}×` : 'not measurable', `<= ${GROWTH_GOAL}×`, ok && r <= GROWTH_GOAL)}`;
    const n = (r: { size: number }): string => r.size.toLocaleString('en');
    const againstFirst = judged(time, measurable(last.usPerCase, first.usPerCase), `CPU time a case adds, ${n(last)} cases against ${n(first)}`);
    // with two sizes the middle one is the first: that comparison is the first one, judged once
    const againstMiddle = middle === first ? '' : ` and ${timeMiddle.toFixed(2)}× that at ${n(middle)} ${judged(timeMiddle, measurable(last.usPerCase, middle.usPerCase), `CPU time a case adds, ${n(last)} cases against ${n(middle)}`)}`;
    console.log(
      `scale: CPU time a case adds at ${n(last)} is ${time.toFixed(2)}× that at ${n(first)} ${againstFirst}${againstMiddle}; memory a case adds ${memory.toFixed(2)}× that at ${n(middle)} ${judged(memory, measurable(last.kbPerCase, middle.kbPerCase), `memory a case adds, ${n(last)} cases against ${n(middle)}`)}`,
    );
  } finally {
    server?.closeAllConnections();
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
