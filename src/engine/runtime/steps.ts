import { SpecgateError } from '../../errors.js';
import type { ExecExpect, HttpExpect, HttpRequestSpec, RepeatSpec, Step } from '../model.js';
import { checkRequestValues, misshapenValue, shown } from './value-origin.js';
import { SkipCase } from './time.js';
import type { StepScope } from './step-scope.js';
import { capture, expectationMismatches, recordMismatches, type Observation, type ObservationContext } from './observation.js';
import { headerNamer, runExec, sendRequest } from './step-io.js';
import { parseDuration } from './time.js';
import { runQueryStep } from './query-step.js';
import { argProblems } from '../checks/args.js';

/** Runs one step: resolve its expressions, act (repeating as told), check, capture. */
export async function executeStep(run: StepScope, step: Step, vars: Record<string, unknown>): Promise<void> {
  if ('set' in step) {
    for (const [k, v] of Object.entries(step.set)) vars[k] = run.resolve(v, vars);
    return;
  }
  if ('wait' in step) {
    const value = run.resolve(step.wait, vars);
    const ms = parseDuration(value);
    if (!Number.isFinite(ms))
      throw misshapenValue(run, vars, String(step.wait), `wait: ${JSON.stringify(step.wait)} is ${shown(value)} seconds, which no clock can let pass`);
    await run.wait(ms);
    return;
  }
  if ('check' in step) {
    await runCheck(run, step.check, step.with, vars);
    return;
  }
  if ('query' in step) return runQueryStep(run, step, vars);
  const act = actor(run, step, vars);
  if (!act) return;
  const expect = 'expect' in step && step.expect ? (run.resolve(step.expect, vars) as HttpExpect & ExecExpect) : undefined;
  const obs = await repeat(run, step.repeat, vars, act);
  if (expect) {
    const { requirement, ...rest } = expect;
    recordMismatches(run, expectationMismatches(obs, rest, matchContext(run), headerNamer(run.target)), requirement, obs);
  }
  if (step.capture) capture(obs, step.capture, vars, headerNamer(run.target));
}

/**
 * Runs a typed check: its resolved arguments are checked against its contract first (a value an
 * expression produced can only be checked now), and it may only attribute failures to the
 * requirements it declares it judges.
 */
async function runCheck(run: StepScope, name: string, raw: Record<string, unknown> | undefined, vars: Record<string, unknown>): Promise<void> {
  const check = run.registry.check(name);
  const args = (raw ? run.resolve(raw, vars) : {}) as Record<string, unknown>;
  const problems = argProblems(check, args, false);
  if (problems.length)
    throw new SpecgateError('SG_SUITE_SCHEMA', `case ${run.caseId}: check ${name} was given ${problems.map((p) => `${p.path.join('.') || 'with'}: ${p.message}`).join('; ')}`);
  try {
    await check.run(run.checkContext(vars, { check: name, judges: check.judges }), args as never);
  } catch (e) {
    throw harnessBug(name, e);
  }
}

/**
 * What a typed check throws on purpose is a SpecgateError (or a skip); anything else (a
 * TypeError reading a field of an answer it did not expect, say) is a bug in the check, named
 * after it so that it can be fixed: a check must judge odd answers, not trip over them.
 */
function harnessBug(check: string, e: unknown): unknown {
  if (!(e instanceof Error) || e instanceof SpecgateError || e instanceof SkipCase) return e;
  return new SpecgateError(
    'SG_INTERNAL',
    `check ${check} failed with a bug in specgate or in the suite (the check's code threw ${e.name}: ${e.message}); the exchanges before it are in the report; please report it with the command you ran`,
    { check },
    { cause: e },
  );
}

function actor(run: StepScope, step: Step, vars: Record<string, unknown>): (() => Promise<Observation>) | undefined {
  if ('request' in step) {
    return () => {
      const spec = run.resolve(step.request, vars) as HttpRequestSpec;
      checkRequestValues(run, step.request, spec, vars);
      return sendRequest(run, spec);
    };
  }
  if ('exec' in step) {
    const expect = step.expect;
    return () => runExec(run, run.resolve(step.exec, vars) as typeof step.exec, expect, vars);
  }
  if ('agent' in step) {
    return async () => {
      const driver = run.agentFor(vars);
      if (!driver)
        throw new SpecgateError('SG_CONFIG', `case ${run.caseId} needs a user agent to "${step.agent}", and the target has none: add \`agent:\` to the target profile (scripted or interactive)`);
      const params = (step.with ? run.resolve(step.with, vars) : {}) as Record<string, unknown>;
      const result = await driver.perform(step.agent, params, run.signal);
      const exchange = () => ({ kind: 'note' as const, summary: `user agent (${driver.kind}): ${step.agent}`, request: params, response: result });
      run.note(exchange);
      return { data: result, body: result, exchange };
    };
  }
  return undefined;
}

/** `repeat: N` acts N times; `repeat: {max, until, wait}` acts until the condition holds, never more than max. */
async function repeat(run: StepScope, spec: number | RepeatSpec | undefined, vars: Record<string, unknown>, act: () => Promise<Observation>): Promise<Observation> {
  if (spec === undefined) return act();
  if (typeof spec === 'number') {
    let obs = await act();
    for (let i = 1; i < spec && !run.signal.aborted; i++) obs = await act();
    return obs;
  }
  const until = spec.until ? (run.resolve(spec.until, vars) as Record<string, unknown>) : undefined;
  const waitMs = spec.wait === undefined ? 0 : parseDuration(run.resolve(spec.wait, vars));
  let obs = await act();
  for (let i = 1; i < spec.max && !run.signal.aborted; i++) {
    if (until && expectationMismatches(obs, until, matchContext(run), headerNamer(run.target)).length === 0) return obs;
    await run.wait(waitMs);
    obs = await act();
  }
  if (until) {
    const left = expectationMismatches(obs, until, matchContext(run), headerNamer(run.target));
    if (left.length) run.fail({ message: `condition not reached after ${spec.max} attempts: ${left.map((m) => `${m.path}: ${m.message}`).join('; ')}` }, obs.exchange);
  }
  return obs;
}

function matchContext(run: StepScope): ObservationContext {
  return { schema: (name, v) => run.registry.validateSchema(name, v), redact: (text) => run.redact(text) };
}

