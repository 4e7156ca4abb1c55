import { performance } from 'node:perf_hooks';
import type { FuzzOptions, FuzzResult, Fuzzer } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { execFor } from '../../../src/targets/command-line.js';
import type { ExecConfig } from '../../../src/targets/types.js';
import { gatesOf } from './fuzz-options.js';
import { reportFinding, type ReportedFinding } from './fuzz-report.js';
import { runLane, type LaneContext, type LaneFinding, type LaneOutcome } from './lane-run.js';
import { planLanes, runLanes } from './lanes.js';

/** The plugin to run: the target's executable, or var plugin_command (by the one command-line rule). */
function pluginExec(opts: FuzzOptions): ExecConfig {
  if (opts.target.exec) return opts.target.exec;
  const v = opts.target.vars['plugin_command'];
  if (v === undefined || v === '') throw new SpecgateError('SG_CONFIG', 'no plugin to fuzz: give --plugin <executable> or set vars.plugin_command');
  return execFor(v, 'vars.plugin_command');
}

/**
 * `specgate fuzz plugin`: sends generated valid CodeGeneratorRequests (spec A) to the plugin,
 * `concurrency` processes at a time, and judges each as `specgate run` judges a plugin
 * (judge-case.ts): the answer in the usual field order by every response rule, the same request
 * in another wire order, the usual order again when the two answers differ, and, when the
 * request has imports, what is written for them. A finding at the gating level (MUST; SHOULD with
 * --strict; see fuzz-options.ts) stops the search; one below it is reported and the search goes
 * on. Each finding is shrunk, written once as counterexample files under names no earlier run
 * used (counterexample-files.ts), with a regression case where `plugin.fuzzRequest` can judge it,
 * and reported once with its replay command. See lanes.ts for how concurrency keeps replay exact.
 */
export const fuzzPlugin: Fuzzer = async (opts) => {
  const started = performance.now();
  const exec = pluginExec(opts);
  const replaying = opts.path !== undefined && opts.path !== '';
  const lanes = replaying ? [{ index: 0, seed: opts.seed, runs: Math.max(1, opts.runs) }] : planLanes(opts.seed, opts.runs);
  const shown = [exec.command, ...(exec.args ?? [])].join(' ');
  opts.log(
    replaying
      ? `replaying seed ${opts.seed} path ${String(opts.path)} against ${shown}`
      : `fuzzing ${shown} with ${opts.runs} requests (seed ${opts.seed}, ${lanes.length} lanes, ${opts.concurrency} processes)`,
  );
  const ctx: LaneContext = { opts, exec, gates: gatesOf(opts), noted: new Map(), ...(replaying ? { replay: String(opts.path) } : {}) };
  const results = await runLanes(lanes, replaying ? 1 : opts.concurrency, (lane, stop) => runLane(ctx, lane, stop));

  // Lanes in order up to the first that failed: what lies beyond it depends on timing, so it is
  // left out, and a requirement found below the gating level by several lanes is the lowest's.
  let runs = 0;
  let errored = 0;
  const expected = new Map<string, number>();
  let failure: LaneOutcome | undefined;
  const notes = new Map<string, LaneFinding>();
  for (const lane of lanes) {
    const r = results.get(lane.index);
    if (!r) continue;
    runs += r.runs;
    errored += r.errored;
    for (const [id, n] of r.expected) expected.set(id, (expected.get(id) ?? 0) + n);
    for (const n of r.notes) if (!notes.has(n.finding.requirement)) notes.set(n.finding.requirement, n);
    if (r.failed) {
      failure = r;
      break;
    }
  }
  const durationMs = performance.now() - started;
  // Counts include shrink steps: each distinct request the plugin was run on counts once.
  const known = [...expected].sort(([a], [b]) => a.localeCompare(b)).map(([id, n]) => `${id} in ${n}`);
  const counts =
    (errored > 0 ? ` (${errored} answered with CodeGeneratorResponse.error or refused a generated parameter, which is allowed)` : '') +
    (known.length > 0 ? `; expected by the baseline, not reported: ${known.join(', ')} request(s)` : '');
  const interrupted = opts.signal.aborted ? ' before it was interrupted' : '';

  const gating = failure?.findings ?? [];
  const below = [...notes.values()];
  if (gating.length === 0 && below.length === 0) return { ok: true, runs, durationMs, files: [], message: `no finding in ${runs} valid requests${interrupted}${counts}` };

  // Each finding is worded and written exactly once, here; nothing is logged on the way.
  const reported: ReportedFinding[] = [
    ...gating.map((f, i) => reportFinding(opts, f, true, i === 0 ? counts : '')),
    ...below.map((f) => reportFinding(opts, f, false)),
  ];
  const head = gating.length === 0 ? [`no finding at the gating level in ${runs} valid requests${interrupted}${counts}; ${below.length} below it:`] : [];
  const first = reported[0];
  const result: FuzzResult = {
    ok: gating.length === 0,
    runs,
    durationMs,
    files: reported.flatMap((r) => r.files),
    message: [...head, ...reported.flatMap((r) => r.lines)].join('\n'),
    ...(first ? { replay: first.replay, property: { ...first.property, runs } } : {}),
  };
  return result;
};
