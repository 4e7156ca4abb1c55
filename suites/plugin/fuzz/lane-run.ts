import fc from 'fast-check';
import type { FuzzOptions } from '../../../src/engine/suite-module.js';
import type { ExecConfig } from '../../../src/targets/types.js';
import { markerPrefix } from '../checks/support.js';
import { fuzzCase, targetParameters, wantsGoPackage, type FuzzCase } from './fuzz-request.js';
import { judgeCase, type CaseFinding, type CaseVerdict } from './judge-case.js';
import type { Lane } from './lanes.js';
import { PluginRuns, RunStopped } from './plugin-runs.js';

/** Thrown inside the property so that fast-check shrinks; carries what the case broke. */
class Found extends Error {
  constructor(readonly found: readonly CaseFinding[]) {
    super(found.map((f) => `${f.finding.requirement}: ${f.finding.message}`).join('\n'));
  }
}

/** A finding with its shrunk case and how to replay it. */
export interface LaneFinding extends CaseFinding {
  case: FuzzCase;
  /** The lane's seed and the fast-check path of the shrunk case: `--seed <seed> --path <path>`. */
  seed: number;
  path?: string;
  shrinks?: number;
  lane: number;
}

export interface LaneOutcome {
  /** A finding at the gating level ended the lane. */
  failed: boolean;
  runs: number;
  errored: number;
  /** Requests that broke a requirement the baseline expects, by requirement. */
  expected: Map<string, number>;
  /** Findings at the gating level: the one that ended the lane, or when replaying every one the case shows. */
  findings: LaneFinding[];
  /** Findings below the gating level, one per requirement, each shrunk; the search went on past them. */
  notes: LaneFinding[];
}

/** What every lane of one fuzz run shares. */
export interface LaneContext {
  opts: FuzzOptions;
  exec: ExecConfig;
  /** Whether a finding of this requirement fails the search (see fuzz-options.ts). */
  gates(requirement: string): boolean;
  /** For each requirement below the gating level, the lowest lane that reported it so far. */
  noted: Map<string, number>;
  /** Replaying one recorded case (`--path`): judge it completely and report everything it breaks. */
  replay?: string;
}

/**
 * One lane: a fast-check run of generated cases, each judged by judge-case.ts. At the first
 * finding fast-check shrinks the case, keeping only candidates that show a finding of the same
 * requirement. A finding at the gating level ends the lane. One below it (a SHOULD without
 * --strict, say) is kept and the lane starts over with that requirement set aside, so it cannot hide
 * a gating finding behind it; the plugin's runs are remembered, so starting over costs no
 * process until the lane gets past the point where it stopped. A requirement a lower lane has
 * already reported is set aside at once: only the lowest lane's finding is reported, which keeps
 * the report the same at any concurrency.
 */
export async function runLane(ctx: LaneContext, lane: Lane, stop: AbortSignal): Promise<LaneOutcome> {
  const { opts } = ctx;
  const expectedIds = opts.expected ?? new Set<string>();
  const expected = new Map<string, number>();
  const counted = new Set<string>();
  let errored = 0;
  const signal = AbortSignal.any([opts.signal, stop]);
  const runs = new PluginRuns(ctx.exec, opts.target.runner, signal, { markerPrefix: markerPrefix(opts.target), schemaTags: true });
  const goPackage = wantsGoPackage(opts.target.vars);
  const parameters = targetParameters(opts.target.vars);
  const arb = fuzzCase({ parameters, goPackage });
  const notes: LaneFinding[] = [];
  const setAside = new Set<string>();
  // A harness fault (the plugin cannot be started, ...) ends the lane without shrinking: it is
  // rethrown after the run, never reported as a finding.
  let fault: { error: unknown } | undefined;
  // The requirement whose finding is being shrunk.
  let target: string | undefined;
  const replaying = ctx.replay !== undefined;
  const wanted = (id: string): boolean => {
    if (expectedIds.has(id)) return false;
    if (replaying) return true;
    if (setAside.has(id) || (ctx.noted.get(id) ?? Number.POSITIVE_INFINITY) < lane.index) return false;
    return target === undefined || id === target;
  };

  const prop = fc.asyncProperty(arb, async (c) => {
    // A stopped lane (a lower lane failed, or the user interrupted) just lets its runs pass.
    if (signal.aborted || fault) return;
    let verdict: CaseVerdict;
    try {
      verdict = await judgeCase(c, { runs, goPackage, ownParameter: parameters.length === 0, stopsAt: replaying ? () => false : wanted, ...(target === undefined || replaying ? {} : { only: target }) });
    } catch (e) {
      if (!(e instanceof RunStopped)) fault = { error: e };
      return;
    }
    // counted once per distinct case, however often shrinking or starting over meets it
    const key = `${c.order}:${JSON.stringify(c.request)}`;
    if (!counted.has(key)) {
      counted.add(key);
      if (verdict.errored) errored++;
      for (const id of new Set(verdict.found.map((f) => f.finding.requirement))) if (expectedIds.has(id)) expected.set(id, (expected.get(id) ?? 0) + 1);
    }
    const hits = verdict.found.filter((f) => wanted(f.finding.requirement));
    const first = hits[0];
    if (!first) return;
    target ??= first.finding.requirement;
    throw new Found(replaying ? hits : [first]);
  });

  for (;;) {
    target = undefined;
    const params: fc.Parameters<[FuzzCase]> = { seed: lane.seed, numRuns: lane.runs };
    // Replaying: reproduce the recorded case and stop there.
    if (ctx.replay !== undefined) Object.assign(params, { path: ctx.replay, endOnFailure: true });
    const details = await fc.check(prop, params);
    if (fault) throw fault.error;
    const outcome = { runs: details.numRuns, errored, expected, notes };
    if (!details.failed) return { failed: false, findings: [], ...outcome };
    const err: unknown = details.errorInstance;
    // Anything else thrown is a bug of the harness itself: no verdict.
    if (!(err instanceof Found)) throw err;
    const shrunk = details.counterexample?.[0];
    if (!shrunk) throw err;
    const found = err.found.map((f): LaneFinding => ({ ...f, case: shrunk, seed: lane.seed, lane: lane.index, shrinks: details.numShrinks, ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}) }));
    const gating = found.filter((f) => ctx.gates(f.finding.requirement));
    notes.push(...found.filter((f) => !ctx.gates(f.finding.requirement)));
    if (gating.length > 0) return { failed: true, findings: gating, ...outcome };
    if (replaying || signal.aborted) return { failed: false, findings: [], ...outcome };
    for (const f of found) {
      const id = f.finding.requirement;
      setAside.add(id);
      ctx.noted.set(id, Math.min(ctx.noted.get(id) ?? Number.POSITIVE_INFINITY, lane.index));
    }
  }
}
