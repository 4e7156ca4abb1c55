import * as fc from 'fast-check';
import { isTimeBound } from '../time-bound.js';
import { SpecgateError, asSpecgateError } from '../../errors.js';
import { resolveDeep } from '../expressions.js';
import type { BlockedBy, CaseDef, CaseResult, Exchange, Failure, LoadedSuite, PropertyInfo } from '../model.js';
import type { CheckContext, FailureInput, PropertyOptions } from '../suite-module.js';
import { runProperty, type PropertyProgress } from './property.js';
import { HeldAttempts, attemptState, currentAttempt, inAttempt, type AttemptState } from './attempt-state.js';
import { apiContext } from '../api/sequence-model.js';
import { deriveSeed } from './seeds.js';
import { executeStep } from './steps.js';
import { recordedDocuments } from './command-step.js';
import { headerNamer, runProcess, sendRequest } from './step-io.js';
import { BrowserAgent } from '../agents/browser-agent.js';
import { ScriptedAgent } from '../agents/scripted-agent.js';
import type { ExecRunner, HttpClient, SuiteTarget, UserAgentDriver } from '../../targets/types.js';
import type { SuiteRuntime } from './suite-runtime.js';
import type { StepScope } from './step-scope.js';
import type { CaseStop } from './case-stop.js';
import type { Registry } from '../registry.js';
import { NotApplicableCase } from './not-applicable.js';
import { SkipCase, SKIP_NO_CLOCK } from './time.js';
import { AdvertisedValues, type HeardAnswer } from './advertised-values.js';
import { explained, type FailureNote } from './advertised-note.js';
import { BlockedCase } from './evidence.js';
import { boundedValue } from './bounded-value.js';
import { boundedExchange, boundedFinding } from './bounded-failure.js';
import { keepFailure } from './failure-cap.js';
import { issuedInValue } from '../../targets/issued-credentials.js';

const KEEP_EXCHANGES = 4;
/** Answers a listening check keeps (a check that sets variables reads them from its first few). */
const KEEP_ANSWERS = 16;

/**
 * One case being run: its variables, the failures it found, the last exchanges it saw.
 * Steps and typed checks record into it; `finish` turns it into a CaseResult.
 */
export class CaseRun implements StepScope {
  readonly vars: Record<string, unknown>;
  /** The case's failures (a property run's own while it runs: attempt-state.ts). */
  private caseFailures: Failure[] = [];
  private readonly recent: (() => Exchange)[] = [];
  private propertyCalls = 0;
  property: PropertyInfo | undefined;
  /** How far the property running now has got (the case's timeout message says it). */
  propertyProgress: PropertyProgress | undefined;
  private caseSeed: number | undefined;
  /** What each set of variables (the case's, a property attempt's) took from the target; made on first use. */
  private ledgers: WeakMap<Record<string, unknown>, AdvertisedValues> | undefined;
  /** Answers collected for a typed check that sets variables; undefined when nobody listens. */
  private caseListening: HeardAnswer[] | undefined;
  /** Notes explaining the failures of the steps running now, innermost last. */
  private readonly caseNotes: (() => FailureNote | undefined)[] = [];
  /**
   * Whether property runs have begun, each with state of its own (see {@link attempt}); never
   * unset: a run side by side left to end after its property ended still records apart.
   */
  private hasAttempts = false;
  /**
   * Observations that judged each requirement, by requirement (own keys only); made on the first
   * one, as the record the result carries: a Map and its copy into a record cost more than the
   * rest of a passing case's bookkeeping.
   */
  private evidence: Record<string, number> | undefined;
  /** Why a requirement had nothing to judge (the first reason given). */
  private emptyHanded: Map<string, string> | undefined;
  /** Requirements blocked one by one while the case went on. */
  private blockedOnes: Map<string, BlockedBy> | undefined;
  /** Requirements a typed check running now said something about (observed or found nothing for). */
  private caseTouched: Set<string> | undefined;

  constructor(
    readonly rt: SuiteRuntime,
    readonly def: CaseDef,
    readonly stopSource: CaseStop,
  ) {
    this.vars = copyOf(rt.target.vars);
    if (def.vars) copyInto(this.vars, resolveDeep(def.vars, { vars: rt.target.vars, env: rt.env }) as Record<string, unknown>);
  }

  /**
   * The state of the property run the caller is part of, when property runs are under way: runs
   * side by side each record their own failures, notes, answers and touched requirements.
   */
  private get attempt(): AttemptState | undefined {
    return this.hasAttempts ? currentAttempt(this) : undefined;
  }

  /**
   * Keeps `record` for later when the caller is a property run side by side not yet committed
   * (what it records counts only if every run before it passed); false when it counts now.
   * A record done at commit runs outside any run: it is done, not held again.
   */
  private held(record: () => void): boolean {
    const pending = this.attempt?.pending;
    if (!pending) return false;
    pending.push(record);
    return true;
  }

  /** The failures found so far: the case's, or within a property run, that run's. */
  get failures(): Failure[] {
    return this.attempt?.failures ?? this.caseFailures;
  }

  private get notes(): (() => FailureNote | undefined)[] {
    return this.attempt?.notes ?? this.caseNotes;
  }

  private get listening(): HeardAnswer[] | undefined {
    const a = this.attempt;
    return a ? a.listening : this.caseListening;
  }

  private set listening(answers: HeardAnswer[] | undefined) {
    const a = this.attempt;
    if (a) a.listening = answers;
    else this.caseListening = answers;
  }

  private get touched(): Set<string> | undefined {
    const a = this.attempt;
    return a ? a.touched : this.caseTouched;
  }

  private set touched(ids: Set<string> | undefined) {
    const a = this.attempt;
    if (a) a.touched = ids;
    else this.caseTouched = ids;
  }

  /** The case's own seed (generated inputs, typed checks): derived when first asked for, as most cases never do. */
  get seed(): number {
    return (this.caseSeed ??= deriveSeed(this.rt.runSeed, this.rt.suite.name, this.def.id));
  }

  /** The case's AbortSignal, made on first use (see CaseStop). */
  get signal(): AbortSignal {
    return this.stopSource.signal;
  }

  get stopped(): boolean {
    return this.stopSource.stopped;
  }

  get caseId(): string {
    return this.def.id;
  }
  get caseRequirements(): readonly string[] {
    return this.def.requirements;
  }

  observe(requirement: string | undefined, count: number, why?: string): void {
    const ids = requirement === undefined ? this.def.requirements : [requirement];
    const touched = this.touched;
    for (const id of ids) touched?.add(id);
    if (!this.held(() => this.observeNow(ids, count, why))) this.observeNow(ids, count, why);
  }

  private observeNow(ids: readonly string[], count: number, why: string | undefined): void {
    for (const id of ids) {
      if (count > 0) {
        const ev = (this.evidence ??= {});
        setCount(ev, id, countOf(ev, id) + count);
      } else if (why !== undefined) {
        const none = (this.emptyHanded ??= new Map());
        if (!none.has(id)) none.set(id, why);
      }
    }
  }

  /**
   * Why the case judged none of its requirements, when it observed nothing of any of them (each
   * found nothing to judge, or was blocked one by one); undefined when it judged something, or
   * when it recorded nothing either way (a case with no expectation at all: the verdicts say so).
   */
  nothingJudged(): string | undefined {
    const ev = this.evidence;
    if (ev && this.def.requirements.some((id) => countOf(ev, id) > 0)) return undefined;
    const why = [
      ...[...(this.blockedOnes ?? [])].map(([id, by]) => `${id} blocked by ${by.requirement}: ${by.message}`),
      ...[...(this.emptyHanded ?? [])].map(([id, reason]) => `${id}: ${reason}`),
    ];
    return why.length ? `nothing to judge: ${why.join('; ')}` : undefined;
  }

  /** `requirement` cannot be judged because the rule `by` names does not hold; the case goes on with the rest. */
  blockOne(requirement: string, by: BlockedBy): void {
    this.touched?.add(requirement);
    if (this.held(() => this.blockOne(requirement, by))) return;
    const blocked = (this.blockedOnes ??= new Map());
    if (!blocked.has(requirement)) blocked.set(requirement, by);
  }

  /**
   * Runs a typed check, counting one observation for each requirement it judges that it said
   * nothing about (`ctx.observed`, `ctx.noEvidence`): a check that ran to its end looked.
   */
  async counted(judges: readonly string[], work: () => Promise<void>): Promise<void> {
    const outer = this.touched;
    const touched = (this.touched = new Set());
    try {
      await work();
    } finally {
      this.touched = outer;
      for (const id of touched) outer?.add(id);
    }
    for (const id of judges) if (!touched.has(id) && this.def.requirements.includes(id)) this.observe(id, 1);
  }
  get suite(): LoadedSuite {
    return this.rt.suite;
  }
  get target(): SuiteTarget {
    return this.rt.target;
  }
  get registry(): Registry {
    return this.rt.registry;
  }
  get http(): HttpClient {
    return this.rt.http;
  }
  get processes(): ExecRunner {
    return this.rt.exec;
  }

  resolve(value: unknown, vars: Record<string, unknown> = this.vars): unknown {
    return resolveDeep(value, { vars, env: this.rt.env });
  }

  /** Masks the target's secrets in `text` (before it is cut down for a report). */
  redact(text: string): string {
    return this.rt.redaction.redactString(text);
  }

  learn(values: readonly string[]): void {
    if (values.length) this.rt.redaction.learn(values);
  }

  /** Remember an exchange lazily: it is only materialised (and redacted) when reported. */
  note(ex: () => Exchange): void {
    if (this.held(() => this.note(ex))) return;
    if (this.rt.onExchange) this.rt.onExchange(this.def.id, this.rt.redaction.redactDeep(ex()) as Exchange);
    this.recent.push(ex);
    if (this.recent.length > KEEP_EXCHANGES) this.recent.shift();
  }

  advertised(vars: Record<string, unknown>): AdvertisedValues {
    const ledgers = (this.ledgers ??= new WeakMap());
    let ledger = ledgers.get(vars);
    if (!ledger) {
      ledger = new AdvertisedValues();
      ledgers.set(vars, ledger);
    }
    return ledger;
  }

  heard(label: string | { readonly label: string }, body: unknown): void {
    const answers = this.listening;
    // the first answers are kept: a check reads what it sets early (a long check may answer thousands of times)
    if (answers && answers.length < KEEP_ANSWERS) answers.push({ label: typeof label === 'string' ? label : label.label, body });
  }

  listen(): { answers: HeardAnswer[]; stop(): void } {
    const answers: HeardAnswer[] = [];
    const outer = this.listening;
    this.listening = answers;
    return { answers, stop: () => void (this.listening = outer) };
  }

  beginNote(note: () => FailureNote | undefined): void {
    this.notes.push(note);
  }

  endNote(): void {
    this.notes.pop();
  }

  fail(f: FailureInput, exchange?: () => Exchange): void {
    if (f.requirement) attributable(f.requirement, this.def);
    const targets = f.requirement ? [f.requirement] : this.def.requirements;
    const ex = f.exchange ?? exchange?.();
    const message = explained(f.message, this.notes[this.notes.length - 1]?.());
    for (const requirement of targets) {
      const failure: Failure = { requirement, message };
      if (f.expected !== undefined) failure.expected = f.expected;
      if (f.actual !== undefined) failure.actual = f.actual;
      if (f.detail !== undefined) failure.detail = f.detail;
      if (ex) failure.exchange = ex;
      this.keep(failure);
    }
  }

  /** Records a failure of the case: its values bounded, and at most so many per requirement (failure-cap.ts). */
  private keep(failure: Failure): void {
    keepFailure(this.failures, boundedFinding(failure));
  }

  /**
   * Whether a rule the case rests on, which did not hold, should fail here: the case judges it
   * and has not failed it yet (a step that already failed it said why; a second message would
   * count one finding twice).
   */
  failsFirst(requirement: string): boolean {
    return this.def.requirements.includes(requirement) && !this.failures.some((f) => f.requirement === requirement);
  }

  /** Lets time pass for the target according to the suite's time mode. */
  async wait(ms: number): Promise<void> {
    if (ms <= 0) return;
    const { timeMode, target } = this.rt;
    if (!isTimeBound(this.def))
      throw new SpecgateError('SG_SUITE_SCHEMA', `case ${this.def.id} lets time pass but is not tagged time-bound: add \`tags: [time-bound]\` so it runs alone on the target clock`);
    if (timeMode === 'none' || !target.clock) throw new SkipCase(SKIP_NO_CLOCK);
    await target.clock.advance(ms, this.signal);
  }

  async runSteps(steps: CaseDef['steps'], vars: Record<string, unknown> = this.vars): Promise<void> {
    for (let i = 0; i < steps.length; i++) {
      if (this.stopped) return;
      const step = steps[i];
      if (step) await executeStep(this, step, vars, i + 1);
    }
  }

  /**
   * The context typed checks see. With a contract, a failure attributed to a requirement the
   * check does not declare it judges is a bug in the check, not a finding. A failure of one it
   * declares but this case does not list (a case may judge some of a check's requirements) is
   * the target breaking a rule this case does not judge: nothing after it can be judged, so the
   * case ends as a protocol fault naming that rule, never as a suite-file error.
   */
  checkContext(vars: Record<string, unknown> = this.vars, contract?: { check: string; judges: readonly string[] | 'case'; precondition?: string }): CheckContext {
    const { rt } = this;
    const run = this;
    const fail = (f: FailureInput): void => {
      if (contract && f.requirement && contract.judges !== 'case' && !contract.judges.includes(f.requirement))
        throw new SpecgateError('SG_INTERNAL', `check ${contract.check} attributed a failure to ${f.requirement}, which its contract does not list among the requirements it judges (${contract.judges.join(', ')})`);
      if (contract && f.requirement && contract.judges !== 'case' && !this.def.requirements.includes(f.requirement)) throw outsideCase(this.def, contract.check, f);
      this.fail(f);
    };
    return {
      suite: rt.suite.name,
      caseId: this.def.id,
      requirements: this.def.requirements,
      vars,
      api: apiContext(rt.suite.api, rt.module.apiModels, rt.target.pathNames),
      request: async (spec) => {
        const obs = await sendRequest(this, spec);
        return { ...obs.response, exchange: obs.exchange() };
      },
      exec: async (spec) => {
        const { stdin, cwd, maxStdoutBytes, label, describe, ...rest } = spec;
        const res = await runProcess(this, rest, stdin ?? new Uint8Array(0), { ...(cwd ? { cwd } : {}), ...(maxStdoutBytes ? { maxStdoutBytes } : {}) }, { ...(label ? { label } : {}), ...(describe ? { describe } : {}) });
        return { ...res.result, exchange: res.exchange() };
      },
      execConfig: rt.target.exec,
      ...(rt.target.database ? { database: rt.target.database } : {}),
      ...(rt.target.documents ? { documents: recordedDocuments(this, rt.target.documents) } : {}),
      clock: rt.target.clock,
      agent: this.agentFor(vars),
      ...(rt.httpTimeoutMs !== undefined ? { httpTimeoutMs: rt.httpTimeoutMs } : {}),
      // made only when the check reads it
      get signal(): AbortSignal {
        return run.signal;
      },
      observations: rt.observations,
      // read only by checks that generate: a case that never reads it judges the same on any seed
      get seed(): number {
        return run.seed;
      },
      runs: rt.runs ?? 100,
      exchange: (ex) => {
        // a user agent's result may hold what the target issued (the code of the page it ended on)
        this.learn(issuedInValue(ex.response));
        // what a check reports it saw (a user-agent action's result) is an answer it may set variables from
        this.heard(ex.summary, ex.response);
        this.note(() => ex);
      },
      fail,
      observed: (requirement, count = 1) => this.observe(requirement, count),
      noEvidence: (requirement, reason) => this.observe(requirement, 0, reason),
      blockedOne: (requirement, by, reason, exchange) => this.blockOne(requirement, { requirement: by, message: reason, ...(exchange ? { exchange } : {}) }),
      blocked: (requirement, reason, exchange) => {
        if (this.failsFirst(requirement)) this.fail({ requirement, message: reason, ...(exchange ? { exchange } : {}) });
        throw new BlockedCase({ requirement, message: reason, ...(exchange ? { exchange } : {}) });
      },
      // only a check that names its requirements can find one outside the case; `case` checks filing elsewhere have a bug
      property: (arb, predicate, opts) => this.typedProperty(arb, predicate, opts, contract && contract.judges !== 'case' ? contract : undefined),
      wait: (seconds) => this.wait(seconds * 1000),
      skip: (reason) => {
        throw new SkipCase(reason);
      },
      notApplicable: (reason) => {
        throw new NotApplicableCase(reason);
      },
      resolve: (v) => this.resolve(v, vars),
      headerName: headerNamer(rt.target),
      ...(contract?.precondition !== undefined ? { precondition: contract.precondition } : {}),
    };
  }

  /**
   * The target's user agent as agent steps and typed checks use it, or undefined when the target
   * has none. A scripted agent runs its action's steps through this case, with `vars` in scope.
   */
  agentFor(vars: Record<string, unknown>): UserAgentDriver | undefined {
    const agent = this.rt.target.agent;
    // a browser agent sees the case's variables, names its failure screenshots after the case and
    // keeps one context and page for the case's actions until the case stops
    if (agent instanceof BrowserAgent) {
      const lane = this.attempt?.lane;
      return agent.forCase({ caseId: this.def.id, vars, stop: this.stopSource, ...(lane ? { lane } : {}) });
    }
    if (!(agent instanceof ScriptedAgent)) return agent;
    return { kind: agent.kind, perform: (action, params) => this.scripted(agent, action, params, vars) };
  }

  /**
   * Runs a profile-scripted action's steps; its result is every variable the steps set or
   * captured (new, or given a new value), plus the action's parameters.
   */
  private async scripted(agent: ScriptedAgent, action: string, params: Record<string, unknown>, vars: Record<string, unknown>): Promise<Record<string, unknown>> {
    const steps = agent.steps(action);
    if (!steps) throw new SpecgateError('SG_CONFIG', `the target profile's scripted user agent has no "${action}" action; add it under agent.actions`);
    const scope: Record<string, unknown> = { ...vars, ...params };
    const before = new Map(Object.entries(scope));
    await this.runSteps(steps, scope);
    return Object.fromEntries(Object.entries(scope).filter(([k, v]) => k in params || !before.has(k) || before.get(k) !== v));
  }

  private async typedProperty<T>(arb: fc.Arbitrary<T>, predicate: (v: T) => Promise<FailureInput | void>, opts?: PropertyOptions<T>, contract?: { check: string; judges: readonly string[] | 'case' }): Promise<PropertyInfo> {
    const call = this.propertyCalls++;
    const seed = call === 0 ? this.seed : deriveSeed(this.seed, call);
    const path = replayPathFor(this.rt.replayPath, call);
    // a check's own runs are a cap (each run may cost real requests or processes): --runs lowers
    // them, never raises them
    const runs = opts?.runs !== undefined ? Math.min(opts.runs, this.rt.runs ?? opts.runs) : (this.rt.runs ?? 100);
    if (this.attempt?.pending)
      throw new SpecgateError('SG_SUITE_SCHEMA', `case ${this.def.id} runs its property runs side by side (property.parallel) and a check in them starts a property of its own, whose seed would depend on which run asks first; drop \`parallel\` from the case`);
    // runs side by side record apart, each committed (its failures, exchanges, evidence) once
    // every run before it passed; runs in turn record as the check goes
    const held = new HeldAttempts();
    const outcome = await runProperty(arb, async (v, run) => {
      if (run.index < 0) {
        const f = await predicate(v);
        return f ? [f] : [];
      }
      this.hasAttempts = true;
      const state = attemptState(this, run.lane, true);
      held.hold(run.index, state);
      const f = await inAttempt(state, () => predicate(v));
      return f ? [f] : [];
    }, {
      seed, runs, path, signal: this.signal, shrink: this.rt.shrink, width: this.widthOf(opts?.parallel),
      onProgress: (p) => (this.propertyProgress = p),
      onCommit: (index) => {
        for (const f of held.commit(index)?.failures ?? []) this.keep(f);
      },
      ...(opts?.examples ? { examples: opts.examples } : {}),
    });
    const info: PropertyInfo = { seed: this.rt.runSeed, runs: outcome.runs };
    if (outcome.failed) {
      const fullPath = call === 0 ? outcome.path : `${call}@${outcome.path}`;
      Object.assign(info, { path: fullPath, counterexample: boundedValue(outcome.counterexample), shrinks: outcome.shrinks, replay: this.rt.replay(this.def.id, this.rt.runSeed, fullPath) });
      const judges = contract?.judges;
      const outside = Array.isArray(judges) ? outcome.failures.find((f) => f.requirement && judges.includes(f.requirement) && !this.def.requirements.includes(f.requirement)) : undefined;
      if (outside && contract) {
        this.property = info;
        throw outsideCase(this.def, contract.check, outside);
      }
      for (const f of outcome.failures) for (const x of toFailures(f, this.def)) this.keep({ ...x, property: info });
      this.property = info;
    }
    return info;
  }

  /**
   * How many runs of a property may go on at once: what the case or check allows (`parallel`),
   * within the run's bound on cases in flight (--concurrency 1 runs them one after another).
   */
  private widthOf(parallel: number | undefined): number {
    return Math.max(1, Math.min(parallel ?? 1, this.rt.propertyWidth));
  }

  /** A property case: generate values, ask the oracle, run the steps for each, shrink on failure. */
  async runPropertyCase(): Promise<void> {
    const spec = this.def.property;
    if (!spec) return;
    const arb = this.rt.registry.generator(spec.generate)({ vars: this.vars });
    const oracle = spec.oracle ? this.rt.registry.oracle(spec.oracle) : undefined;
    // each run has failures, notes and answers of its own; a run side by side records for the
    // case (exchanges, evidence) once committed, when every run before it passed
    const held = new HeldAttempts();
    const attempt = async (value: unknown, run: { lane: number; index: number }): Promise<Failure[]> => {
      const scoped = copyOf(this.vars);
      scoped['case'] = value;
      scoped['oracle'] = oracle ? oracle(value, { vars: this.vars }) : undefined;
      const state = attemptState(this, run.lane, run.index >= 0);
      if (run.index >= 0) held.hold(run.index, state);
      await inAttempt(state, () => this.runSteps(this.def.steps, scoped));
      return state.failures;
    };
    const runs = this.rt.runs ?? spec.runs ?? 100;
    this.hasAttempts = true;
    const outcome = await runProperty(arb, attempt, {
      seed: this.seed, runs, path: this.rt.replayPath, signal: this.signal, shrink: this.rt.shrink, width: this.widthOf(spec.parallel),
      onProgress: (p) => (this.propertyProgress = p),
      onCommit: (index) => void held.commit(index),
    });
    const info: PropertyInfo = { seed: this.rt.runSeed, runs: outcome.runs };
    if (outcome.failed) {
      Object.assign(info, { path: outcome.path, counterexample: boundedValue(outcome.counterexample), shrinks: outcome.shrinks, replay: this.rt.replay(this.def.id, this.rt.runSeed, outcome.path) });
      for (const f of outcome.failures) for (const x of toFailures(f, this.def)) this.keep({ ...x, property: info });
    }
    this.property = info;
  }

  result(outcome: CaseResult['outcome'], durationMs: number, extra?: Partial<CaseResult>): CaseResult {
    const r: CaseResult = {
      suite: this.rt.suite.name,
      id: this.def.id,
      requirements: this.def.requirements,
      outcome,
      failures: this.failures,
      exchanges: outcome === 'passed' ? [] : this.recent.map((f) => boundedExchange(f())),
      durationMs,
      location: this.def.location,
    };
    if (this.def.assumes) r.assumes = this.def.assumes;
    if (this.caseSeed !== undefined) r.seeded = true;
    const ev = this.evidence;
    if (ev) {
      r.evidence = ev;
      // handed over: what steps still running observe after the case ended (stopped at its deadline) is not the result's
      this.evidence = undefined;
    }
    if (this.blockedOnes) r.blocked = recordOf(this.blockedOnes);
    if (this.emptyHanded) {
      // a reason for nothing found stands only where nothing was found at all
      const none = [...this.emptyHanded].filter(([id]) => !ev || !Object.hasOwn(ev, id));
      if (none.length) r.noEvidence = Object.fromEntries(none);
    }
    if (extra) Object.assign(r, extra);
    if (this.def.description) r.description = this.def.description;
    if (this.property) r.property = this.property;
    return this.rt.redaction.redactDeep(r) as CaseResult;
  }
}

/**
 * `Object.fromEntries(map)` for a map keyed by requirement IDs, by a plain loop: the generic
 * iteration of `fromEntries` costs more than the rest of a passing case's result.
 */
function recordOf<T>(map: ReadonlyMap<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  // a key named __proto__ stays a key, as fromEntries keeps it; forEach, as it makes no [key, value] pair per entry
  map.forEach((v, k) => {
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  });
  return out;
}

/** Observations of `id` in an evidence record (0 when none; an inherited name such as `__proto__` is none). */
function countOf(ev: Record<string, number>, id: string): number {
  return Object.hasOwn(ev, id) ? (ev[id] as number) : 0;
}

/** Sets the count of `id`: a requirement named __proto__ stays a key, as fromEntries keeps it. */
function setCount(ev: Record<string, number>, id: string, n: number): void {
  if (id === '__proto__') Object.defineProperty(ev, id, { value: n, enumerable: true, writable: true, configurable: true });
  else ev[id] = n;
}

/**
 * A copy of a set of variables, made key by key rather than by a spread: V8 gives a spread's copy
 * a hidden class of its own once a property is added to it (a step that captures or sets one),
 * which makes every later read of the variables slow.
 */
function copyOf(vars: Record<string, unknown>): Record<string, unknown> {
  return copyInto({}, vars);
}

function copyInto(to: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(from)) {
    // a variable named __proto__ stays a variable, as a spread keeps it
    if (k === '__proto__') Object.defineProperty(to, k, { value: from[k], enumerable: true, writable: true, configurable: true });
    else to[k] = from[k];
  }
  return to;
}

/**
 * What a check found against a requirement its contract names and the case does not list: the
 * target breaks a rule this case rests on, so nothing past that point can be judged. The case is
 * blocked by that rule (its own case judges it), never failed and never a fault.
 */
function outsideCase(def: CaseDef, check: string, f: FailureInput): BlockedCase {
  return new BlockedCase({
    requirement: f.requirement ?? '',
    message: `check ${check} found the target breaking it (${f.message}), which case ${def.id} rests on but does not judge`,
    ...(f.exchange ? { exchange: f.exchange } : {}),
  });
}

/** A finding without a named requirement breaks every requirement of the case, as `ctx.fail` does. */
function toFailures(f: Failure | FailureInput, def: CaseDef): Failure[] {
  if (f.requirement) {
    attributable(f.requirement, def);
    return [f as Failure];
  }
  return def.requirements.map((requirement) => ({ ...f, requirement }));
}

/**
 * A failure must name one of the case's own requirements: verdicts are per requirement of the
 * catalog, so a failure filed under any other name (a typo in a typed check) would be lost and
 * the run could pass with a failed case.
 */
function attributable(requirement: string, def: CaseDef): void {
  if (!def.requirements.includes(requirement))
    throw new SpecgateError(
      'SG_SUITE_SCHEMA',
      `case ${def.id} attributed a failure to ${requirement}, which is not one of its requirements (${def.requirements.join(', ')}); fix the check or list the requirement in the case`,
    );
}

/** `--path 2@5:1:0` replays the third property call of a check; a bare path is the first. */
function replayPathFor(path: string | undefined, call: number): string | undefined {
  if (!path) return undefined;
  const at = path.indexOf('@');
  if (at < 0) return call === 0 ? path : undefined;
  return Number(path.slice(0, at)) === call ? path.slice(at + 1) : undefined;
}

export { isTimeBound };

export function errorText(e: unknown): { code: string; message: string } {
  const err = asSpecgateError(e);
  return { code: err.code, message: err.message };
}
