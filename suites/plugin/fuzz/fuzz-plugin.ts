import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { decodeRequest, encodeRequest } from '../../../reference/plugin/codec.js';
import type { CodeGeneratorRequestValue } from '../../../generators/plugin/descriptor-types.js';
import type { FuzzOptions, FuzzResult, Fuzzer } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { execFor } from '../../../src/targets/command-line.js';
import type { ExecConfig, ExecResult } from '../../../src/targets/types.js';
import { writeCounterexample } from './counterexample-files.js';
import { fuzzRequest, targetParameters, wantsGoPackage } from './fuzz-request.js';
import { judgeRun, judgeRunnerError, type FuzzFinding } from './judge-run.js';
import { planLanes, runLanes, type Lane } from './lanes.js';
import { writeRegressionCase } from './regression-case.js';

/** Thrown inside the property so that fast-check shrinks; carries the finding. */
class Found extends Error {
  constructor(readonly finding: FuzzFinding) {
    super(finding.message);
  }
}

interface LaneOutcome {
  failed: boolean;
  runs: number;
  errored: number;
  /** Requests that broke a requirement the baseline expects, by requirement. */
  expected: Map<string, number>;
  seed: number;
  path?: string;
  shrinks?: number;
  request?: CodeGeneratorRequestValue;
  finding?: FuzzFinding;
}

/** stderr on one line for the summary (the counterexample files keep the request, not stderr). */
function oneLine(text: string, max = 300): string {
  const flat = text.trim().replace(/\s*\n\s*/g, ' | ');
  return flat.length <= max ? flat : `${flat.slice(0, max)}...`;
}

/** The plugin to run: the target's executable, or var plugin_command (by the one command-line rule). */
function pluginExec(opts: FuzzOptions): ExecConfig {
  if (opts.target.exec) return opts.target.exec;
  const v = opts.target.vars['plugin_command'];
  if (v === undefined || v === '') throw new SpecgateError('SG_CONFIG', 'no plugin to fuzz: give --plugin <executable> or set vars.plugin_command');
  return execFor(v, 'vars.plugin_command');
}

/**
 * One fast-check run: generate valid requests, run the plugin on each, judge the answer; on a
 * finding fast-check shrinks the request (each shrink step runs the plugin again).
 */
async function runLane(opts: FuzzOptions, exec: ExecConfig, lane: Lane, stop: AbortSignal, path?: string): Promise<LaneOutcome> {
  let errored = 0;
  const expectedIds = opts.expected ?? new Set<string>();
  const expected = new Map<string, number>();
  const count = (ids: readonly string[]): void => {
    for (const id of ids) expected.set(id, (expected.get(id) ?? 0) + 1);
  };
  // Verdicts by request bytes. Many shrink candidates encode to the same request (the plan-to-
  // descriptor mapping drops what does not apply), so the plugin runs once per distinct request:
  // several times fewer processes while shrinking, and a consistent verdict for each request.
  const seen = new Map<string, FuzzFinding | null>();
  // A harness fault (the plugin cannot be started, ...) ends the lane without shrinking: it is
  // rethrown after the run, never reported as a finding.
  let fault: { error: unknown } | undefined;
  const arb = fuzzRequest({ parameters: targetParameters(opts.target.vars), goPackage: wantsGoPackage(opts.target.vars) });
  const prop = fc.asyncProperty(arb, async (request) => {
    // A stopped lane (a lower lane failed, or the user interrupted) just lets its runs pass.
    if (stop.aborted || opts.signal.aborted || fault) return;
    const stdin = encodeRequest(request);
    const key = Buffer.from(stdin).toString('base64');
    const known = seen.get(key);
    if (known !== undefined) {
      if (known) throw new Found(known);
      return;
    }
    let result: ExecResult;
    try {
      result = await opts.target.runner.run({ ...exec, stdin, signal: AbortSignal.any([opts.signal, stop]) });
    } catch (e) {
      if (stop.aborted || opts.signal.aborted) return;
      let finding: FuzzFinding;
      try {
        finding = judgeRunnerError(e);
      } catch (harness) {
        fault = { error: harness };
        return;
      }
      if (expectedIds.has(finding.requirement)) {
        seen.set(key, null);
        count([finding.requirement]);
        return;
      }
      seen.set(key, finding);
      throw new Found(finding);
    }
    const verdict = judgeRun(request, result, expectedIds);
    if ('finding' in verdict && !expectedIds.has(verdict.finding.requirement)) {
      seen.set(key, verdict.finding);
      throw new Found(verdict.finding);
    }
    seen.set(key, null);
    if ('finding' in verdict) count([verdict.finding.requirement]);
    else {
      count(verdict.answer.expected);
      if (verdict.answer.errored) errored++;
    }
  });
  const params: fc.Parameters<[CodeGeneratorRequestValue]> = { seed: lane.seed, numRuns: lane.runs };
  // Replaying: reproduce the recorded counterexample and stop there.
  if (path !== undefined) Object.assign(params, { path, endOnFailure: true });
  const details = await fc.check(prop, params);
  if (fault) throw fault.error;
  if (!details.failed) return { failed: false, runs: details.numRuns, errored, expected, seed: lane.seed };
  const err: unknown = details.errorInstance;
  // Anything else thrown is a bug of the harness itself: no verdict.
  if (!(err instanceof Found)) throw err;
  const outcome: LaneOutcome = { failed: true, runs: details.numRuns, errored, expected, seed: lane.seed, shrinks: details.numShrinks, finding: err.finding };
  if (details.counterexamplePath) outcome.path = details.counterexamplePath;
  const request = details.counterexample?.[0];
  if (request) outcome.request = request;
  return outcome;
}

/**
 * `specgate fuzz plugin`: sends generated valid CodeGeneratorRequests (spec A) to the plugin,
 * `concurrency` processes at a time, and stops at the first request the plugin crashes on,
 * hangs on, exits non-zero on, answers with bytes that are no CodeGeneratorResponse, or answers
 * with a response breaking a plugin-side rule of the reference model. The request is shrunk,
 * written to `<outDir>/fuzz-plugin-<seed>.bin` and `.json`, and as a regression case for the
 * suite (`.yaml`, see regression-case.ts), and a replay command is returned.
 * See lanes.ts for how concurrency keeps replay exact.
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
  const results = await runLanes(lanes, replaying ? 1 : opts.concurrency, (lane, stop) => runLane(opts, exec, lane, stop, replaying ? opts.path : undefined));

  let runs = 0;
  let errored = 0;
  const expected = new Map<string, number>();
  let failure: LaneOutcome | undefined;
  for (const lane of lanes) {
    const r = results.get(lane.index);
    if (!r) continue;
    runs += r.runs;
    errored += r.errored;
    for (const [id, n] of r.expected) expected.set(id, (expected.get(id) ?? 0) + n);
    if (r.failed && !failure) failure = r;
  }
  const durationMs = performance.now() - started;
  // Counts include shrink steps: each distinct request the plugin was run on counts once.
  const known = [...expected].sort(([a], [b]) => a.localeCompare(b)).map(([id, n]) => `${id} in ${n}`);
  const note =
    (errored > 0 ? ` (${errored} answered with CodeGeneratorResponse.error, which is allowed)` : '') +
    (known.length > 0 ? `; expected by the baseline, not reported: ${known.join(', ')} request(s)` : '');
  if (!failure?.finding || !failure.request) {
    const interrupted = opts.signal.aborted ? ' before it was interrupted' : '';
    return { ok: true, runs, durationMs, files: [], message: `no finding in ${runs} valid requests${interrupted}${note}` };
  }

  const bytes = encodeRequest(failure.request);
  const replay = `${opts.commandLine} --seed ${failure.seed}${failure.path ? ` --path ${failure.path}` : ''} --runs 1`;
  const f = failure.finding;
  // The case holds the request as the .json does (decoded, plain JSON values), so the two agree.
  const decoded: unknown = JSON.parse(JSON.stringify(decodeRequest(bytes)));
  const files = [...writeCounterexample(opts.outDir, failure.seed, bytes), writeRegressionCase(opts.outDir, { seed: failure.seed, request: decoded, finding: f, replay })];
  const detail = [f.signal ? `signal ${f.signal}` : f.exitCode !== undefined ? `exit status ${String(f.exitCode)}` : '', f.stderr ? `stderr: ${oneLine(f.stderr)}` : '']
    .filter((s) => s !== '')
    .join('; ');
  const result: FuzzResult = {
    ok: false,
    runs,
    durationMs,
    files,
    replay,
    message: `${f.requirement}: ${f.message}${detail ? ` [${detail}]` : ''} — shrunk to a request of ${failure.request.proto_file.length} file(s) after ${failure.shrinks ?? 0} shrink steps${note}`,
    property: { seed: failure.seed, runs, counterexample: failure.request, replay, ...(failure.path ? { path: failure.path } : {}), ...(failure.shrinks === undefined ? {} : { shrinks: failure.shrinks }) },
  };
  opts.log(`finding: ${result.message}`);
  return result;
};
