import { SpecgateError } from '../../errors.js';
import type { CheckStep, ExecExpect, HttpExpect, HttpRequestSpec, RepeatSpec, Step } from '../model.js';
import { checkRequestValues, misshapenValue, shown } from './value-origin.js';
import { SkipCase } from './time.js';
import type { StepScope } from './step-scope.js';
import { capture, expectationMismatches, mismatchText, undecodedMessage, type Observation, type ObservationContext } from './observation.js';
import { blockedStep, eachTally, settleExpectation, type EachTally } from './evidence.js';
import { headerNamer, runExec, sendRequest } from './step-io.js';
import { parseDuration } from './time.js';
import { runQueryStep } from './query-step.js';
import { runCommandStep } from './command-step.js';
import { argProblems } from '../checks/args.js';
import { checkSets } from '../checks/contract.js';
import { answerCarrying, type AdvertisedValues, type HeardAnswer } from './advertised-values.js';
import { advertisedNote } from './advertised-note.js';
import { referencesIn, stepReferences } from './step-references.js';

/**
 * Runs one step: resolve its expressions, act (repeating as told), check, capture. `number` is
 * the step's place in the case (1-based), by which failures name the step a value came from.
 * Failures of the step name the values of the target's it relied on (advertised-values.ts).
 */
export function executeStep(run: StepScope, step: Step, vars: Record<string, unknown>, number = 0): Promise<void> {
  // the kinds that act on the target have an async function of their own, kept small: its frame
  // is made for every step of every case
  try {
    return 'set' in step || 'wait' in step ? assignOrWait(run, step, vars) : actingStep(run, step, vars, number);
  } catch (e) {
    return Promise.reject(e);
  }
}

/** A `set:` or `wait:` step. */
async function assignOrWait(run: StepScope, step: Step, vars: Record<string, unknown>): Promise<void> {
  if ('set' in step) {
    const ledger = run.advertised(vars);
    for (const [k, v] of Object.entries(step.set)) {
      vars[k] = run.resolve(v, vars);
      ledger.assigned(k, referencesIn(v));
    }
    return;
  }
  if ('wait' in step) {
    const value = run.resolve(step.wait, vars);
    const ms = parseDuration(value);
    if (!Number.isFinite(ms))
      throw misshapenValue(run, vars, String(step.wait), `wait: ${JSON.stringify(step.wait)} is ${shown(value)} seconds, which no clock can let pass`);
    run.advertised(vars).waitedFor(referencesIn(step.wait));
    await run.wait(ms);
  }
}

/** A step that acts on the target (request, exec, agent, check, query, command), then expects and captures. */
async function actingStep(run: StepScope, step: Step, vars: Record<string, unknown>, number: number): Promise<void> {
  // what the step used and took from the target is looked up only when a failure is explained
  // or a value is captured: a passing step that captures nothing needs neither
  run.beginNote(() => advertisedNote(run.advertised(vars).reliedOnBy(stepReferences(step), 'check' in step)));
  try {
    if ('check' in step) return await runCheck(run, step, vars, { number, used: stepReferences(step), ledger: run.advertised(vars) });
    if ('query' in step) return await runQueryStep(run, step, vars);
    if ('command' in step) return await runCommandStep(run, step, vars);
    const act = actor(run, step, vars);
    if (!act) return;
    const expect = 'expect' in step && step.expect ? (run.resolve(step.expect, vars) as HttpExpect & ExecExpect) : undefined;
    if (step.repeat !== undefined && typeof step.repeat === 'object' && step.repeat.wait !== undefined) run.advertised(vars).waitedFor(referencesIn(step.repeat.wait));
    const obs = step.repeat === undefined ? await act() : await repeat(run, step, step.repeat, vars, act);
    // `requirement` names whom a mismatch fails; expectationMismatches matches no such part
    if (expect) {
      const tally = eachTally();
      settleExpectation(run, step, expectationMismatches(obs, expect, matchContext(run, tally), headerNamer(run.target)), expect, obs, tally);
    }
    if (step.capture) captured(run, step, step.capture, vars, obs, number);
  } finally {
    run.endNote();
  }
}

/** Reads the step's captures into variables, recording where each value came from. */
function captured(run: StepScope, step: Step, spec: Record<string, string>, vars: Record<string, unknown>, obs: Observation, number: number): void {
  capture(obs, spec, vars, headerNamer(run.target));
  const ledger = run.advertised(vars);
  const reliedOn = ledger.originsOf(stepReferences(step));
  const via = obs.label ?? 'the target';
  // a value read from a body that did not decode is missing for that reason, which its judge leads with
  const undecoded = undecodedMessage(obs, (t) => run.redact(t));
  for (const [name, source] of Object.entries(spec)) {
    const fromBody = source.startsWith('$') || source === 'body';
    ledger.captured({ name, value: vars[name], step: number, via, inAnswer: true, reliedOn, ...(undecoded !== undefined && fromBody ? { undecoded } : {}) });
  }
}

/** Where a step sits and what it used, for recording what a check sets. */
interface StepPlace {
  number: number;
  used: readonly string[];
  ledger: AdvertisedValues;
}

/**
 * Runs a typed check: its resolved arguments are checked against its contract first (a value an
 * expression produced can only be checked now), and it may only attribute failures to the
 * requirements it declares it judges. The variables it sets are recorded as taken from the
 * target when it heard answers: from the answer that carries them, or as its own defaults.
 */
async function runCheck(run: StepScope, step: CheckStep, vars: Record<string, unknown>, place: StepPlace): Promise<void> {
  const name = step.check;
  const check = run.registry.check(name);
  const args = (step.with ? run.resolve(step.with, vars) : {}) as Record<string, unknown>;
  const problems = argProblems(check, args, false);
  if (problems.length)
    throw new SpecgateError('SG_SUITE_SCHEMA', `case ${run.caseId}: check ${name} was given ${problems.map((p) => `${p.path.join('.') || 'with'}: ${p.message}`).join('; ')}`);
  const sets = checkSets(check, step.with ?? {});
  const listener = sets.length ? run.listen() : undefined;
  try {
    const judges = check.judges === 'case' ? run.caseRequirements : check.judges;
    await run.counted(judges, () => check.run(run.checkContext(vars, { check: name, judges: check.judges, ...(step.precondition !== undefined ? { precondition: step.precondition } : {}) }), args as never));
  } catch (e) {
    throw harnessBug(name, e);
  } finally {
    listener?.stop();
  }
  if (listener) recordSets(place, name, sets, vars, listener.answers);
}

function recordSets(place: StepPlace, check: string, sets: readonly string[], vars: Record<string, unknown>, answers: readonly HeardAnswer[]): void {
  const first = answers[0];
  const reliedOn = place.ledger.originsOf(place.used);
  for (const name of sets) {
    // a check that heard nothing from the target set the variable from the suite's own values
    if (!first) {
      place.ledger.assigned(name, []);
      continue;
    }
    const value = vars[name];
    const carrier = answerCarrying(answers, name, value);
    place.ledger.captured({ name, value, step: place.number, via: (carrier ?? first).label, check, inAnswer: carrier !== undefined, reliedOn });
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
      return { data: result, body: result, exchange, label: `user agent: ${step.agent}` };
    };
  }
  return undefined;
}

/** `repeat: N` acts N times; `repeat: {max, until, wait}` acts until the condition holds, never more than max. */
async function repeat(run: StepScope, step: Step, spec: number | RepeatSpec | undefined, vars: Record<string, unknown>, act: () => Promise<Observation>): Promise<Observation> {
  if (spec === undefined) return act();
  if (typeof spec === 'number') {
    let obs = await act();
    for (let i = 1; i < spec && !run.stopped; i++) obs = await act();
    return obs;
  }
  const until = spec.until ? (run.resolve(spec.until, vars) as Record<string, unknown>) : undefined;
  const waitMs = spec.wait === undefined ? 0 : parseDuration(run.resolve(spec.wait, vars));
  let obs = await act();
  for (let i = 1; i < spec.max && !run.stopped; i++) {
    if (until && expectationMismatches(obs, until, matchContext(run), headerNamer(run.target)).length === 0) return obs;
    await run.wait(waitMs);
    obs = await act();
  }
  if (until) {
    const left = expectationMismatches(obs, until, matchContext(run), headerNamer(run.target));
    if (left.length) {
      const message = `condition not reached after ${spec.max} attempts: ${left.map(mismatchText).join('; ')}`;
      blockedStep(run, step, message, obs.exchange());
      run.fail({ message }, obs.exchange);
    } else if (!('expect' in step && step.expect)) run.observe(undefined, 1);
  }
  return obs;
}

/** What matching reads of the case (and, for an expectation, where its `$each` matchers count). */
function matchContext(run: StepScope, each?: EachTally): ObservationContext {
  const ctx: ObservationContext = { schema: (name, v) => run.registry.checkSchema(name, v), redact: (text) => run.redact(text) };
  if (each) ctx.each = each;
  return ctx;
}

