import { SpecgateError, asSpecgateError } from '../../errors.js';
import type { CaseDef, CaseResult } from '../model.js';
import { CaseRun, isTimeBound } from './case-run.js';
import type { SuiteRuntime } from './suite-runtime.js';
import { SkipCase, SKIP_NO_CLOCK } from './time.js';

/** Abort reason once a case is over (lets its in-flight I/O stop); one shared value, no stack trace per case. */
const CASE_FINISHED = Object.freeze({ code: 'SG_CASE_FINISHED', message: 'case finished' });

/**
 * Runs one case to an outcome: passed, failed (the target broke a requirement), errored
 * (harness or target fault, with the error's code), or skipped (with the reason).
 * Never throws: whatever happens becomes part of the result.
 */
export async function runCase(rt: SuiteRuntime, def: CaseDef, outer: AbortSignal): Promise<CaseResult> {
  const started = performance.now();
  const skipped = skipReason(rt, def);
  const ac = new AbortController();
  const run = new CaseRun(rt, def, ac.signal);
  if (skipped) return run.result('skipped', 0, { reason: skipped });
  const onOuter = (): void => ac.abort(new SpecgateError('SG_CASE_TIMEOUT', 'the run was interrupted'));
  outer.addEventListener('abort', onOuter, { once: true });
  const timeoutMs = def.timeoutMs ?? rt.caseTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new SpecgateError('SG_CASE_TIMEOUT', `case took longer than ${timeoutMs} ms and was stopped; raise \`timeoutMs\` on the case or --case-timeout`);
      ac.abort(err);
      reject(err);
    }, timeoutMs);
  });
  try {
    const work = def.property ? run.runPropertyCase() : run.runSteps(def.steps);
    await Promise.race([work, timeout]);
    const ms = performance.now() - started;
    return run.result(run.failures.length ? 'failed' : 'passed', ms);
  } catch (e) {
    const ms = performance.now() - started;
    if (e instanceof SkipCase) return run.result('skipped', ms, { reason: e.reason });
    const err = asSpecgateError(e);
    // findings made before a fault still count: the case failed, and the fault is noted
    if (run.failures.length) return run.result('failed', ms, { reason: `${err.code}: ${err.message}`, errorCode: err.code });
    return run.result('errored', ms, { reason: err.message, errorCode: err.code });
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onOuter);
    if (!ac.signal.aborted) ac.abort(CASE_FINISHED);
  }
}

function skipReason(rt: SuiteRuntime, def: CaseDef): string | undefined {
  if (def.skip) return def.skip;
  const missing = (def.needs ?? []).filter((v) => rt.target.vars[v] === undefined || rt.target.vars[v] === '');
  if (missing.length) return `needs ${missing.join(', ')}, which the target does not set (target profile \`vars:\` or a command-line flag)`;
  if (isTimeBound(def) && rt.timeMode === 'none') return SKIP_NO_CLOCK;
  return undefined;
}
