import type * as fc from 'fast-check';
import type { Clock, ClockControl } from './clock.js';
import type { Exchange, ExecSpec, HttpRequestSpec, PropertyInfo, Step } from './model.js';
import type { ExecConfig, ExecResult, ExecRunner, HttpClient, HttpResponse, UserAgentDriver } from '../targets/types.js';
import type { TypedCheck } from './checks/contract.js';
import type { CheckContext } from './checks/context.js';
export type { CheckContext, CheckExec, CheckExecResult, CheckResponse, FailureInput, PropertyOptions } from './checks/context.js';
import type { TargetSection } from '../targets/target-section.js';
import type { ApiContext, ApiTransitions } from './api/sequence-model.js';
import type { DatabaseTarget, DocumentDatabaseTarget } from '../targets/database/types.js';
import type { PassiveRule } from './passive/passive-rules.js';
// what a suite's passive rules are written against (SuiteModule.passiveRules)
export type { PassiveRule, PassiveRuleFinding, PassiveVerdict, PassiveView } from './passive/passive-rules.js';
export type { MatchedExchange } from './passive/match-recording.js';

/**
 * What a suite gives the engine by name. `suites/index.ts` is the one place that lists the
 * built-in suites; YAML refers to these names as `<suite>.<name>`.
 */
export interface SuiteModule {
  name: string;
  /** Absolute folder holding `requirements.yaml` and the case files. */
  dir: string;
  /**
   * The suite's own version, for a suite kept outside specgate (`--suite-module`); reports record
   * it, and `merge` refuses results of another version. A built-in suite declares none: it ships
   * with specgate and has specgate's version.
   */
  version?: string;
  title?: string;
  checks?: Record<string, TypedCheck>;
  /**
   * The suite's own transitions for `api.sequence` (`with: {transitions: <name>}`), added to the
   * generic create/get/list/update/delete of a resource of its `api.yaml`.
   */
  apiModels?: Record<string, ApiTransitions>;
  generators?: Record<string, GeneratorFactory>;
  oracles?: Record<string, Oracle>;
  codecs?: Record<string, Codec>;
  /**
   * Rules over a whole recording (`--target har:`), by name: what a live case learns from
   * requests of its own, read from the exchanges a recording holds (passive/passive-rules.ts).
   */
  passiveRules?: Record<string, PassiveRule>;
  /** JSON Schemas for `schema:` matchers, by name. */
  schemas?: Record<string, object>;
  /** The embedded default target. */
  reference?: ReferenceTarget;
  /** Command-line shorthands that point this suite at a target (e.g. `--plugin <exe>`). */
  targetOptions?: TargetOption[];
  /** `specgate fuzz <suite>`: long-running generated-input search against the target. */
  fuzz?: Fuzzer;
  /**
   * Fills in what an external target leaves implicit, once its profile section and flags are
   * applied (e.g. the plugin suite takes its executable from `vars.plugin_command`, and the
   * reverse), so a profile and a flag naming the same target behave alike.
   */
  completeTarget?(target: Pick<TargetSection, 'vars' | 'exec'>): Pick<TargetSection, 'vars' | 'exec'>;
}

/** A `specgate run` flag contributed by a suite, e.g. `--plugin <executable>`. */
export interface TargetOption {
  /** Long flag name without dashes, e.g. `plugin`. */
  flag: string;
  valueName: string;
  description: string;
  /** Variables the cases see when the flag is given. */
  vars(value: string): Record<string, unknown>;
  /** Default executable for exec steps, when the flag names one. */
  exec?(value: string): ExecConfig;
  /**
   * `replace` (default): the flag names the target, so the suite runs against it alone.
   * `reference`: the flag adds a party to the embedded reference (e.g. a client application
   * run against the reference platform), so the reference still starts and gets these vars.
   */
  layer?: 'replace' | 'reference';
}

export interface FuzzOptions {
  target: FuzzTarget;
  runs: number;
  seed: number;
  /** fast-check replay path, when replaying one failure. */
  path?: string;
  concurrency: number;
  /** Folder for counterexample files (normally `reports/`). */
  outDir: string;
  /**
   * Requirement IDs a baseline expects to fail: their violations are counted, not reported, so
   * the search goes on past a known deviation.
   */
  expected?: ReadonlySet<string>;
  /**
   * Requirement IDs whose findings fail the search, by their level as `run` gates them (MUST;
   * SHOULD with --strict; STRICTER with --stricter). Absent: every finding does. A finding of
   * another requirement is still reported, and the search goes on.
   */
  gating?: ReadonlySet<string>;
  /** The command line that reproduces this run, to build replay commands from. */
  commandLine: string;
  signal: AbortSignal;
  log(line: string): void;
}

export interface FuzzTarget {
  vars: Record<string, unknown>;
  exec: ExecConfig | undefined;
  runner: ExecRunner;
}

export interface FuzzResult {
  ok: boolean;
  runs: number;
  durationMs: number;
  /** Plain-words summary, printed by the CLI. */
  message: string;
  /** Files written (counterexample bytes, decoded JSON). */
  files: string[];
  replay?: string;
  property?: PropertyInfo;
}

export type Fuzzer = (opts: FuzzOptions) => Promise<FuzzResult>;

/** Encodes values to bytes and back (protobuf messages, ...). */
export interface Codec {
  encode(value: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
}

export interface GeneratorContext {
  vars: Readonly<Record<string, unknown>>;
}
export type GeneratorFactory = (ctx: GeneratorContext) => fc.Arbitrary<unknown>;

/** Says what a correct target must answer for a generated value; steps see it as `${oracle}`. */
export type Oracle = (value: unknown, ctx: GeneratorContext) => unknown;

export type { TypedCheck };

export interface RunningReference {
  description: string;
  vars: Record<string, unknown>;
  exec?: ExecConfig;
  agent?: UserAgentDriver;
  /** The database `query:` steps talk to, when the reference has one (it closes it in `stop`). */
  database?: DatabaseTarget;
  /** The document database `command:` steps talk to, when the reference has one (it closes it in `stop`). */
  documents?: DocumentDatabaseTarget;
  /** Under `specgate serve`: how a run in another process reaches it (what `serve --profile` writes). */
  served?: ServedReference;
  stop(): Promise<void>;
}

/**
 * What a target profile for a served reference holds beyond its variables: the clock hook and
 * the user-agent actions a run in another process uses, since the in-process clock and agent do
 * not cross a process boundary.
 */
export interface ServedReference {
  /** Where it listens, when it advertises another origin (`publicUrl`). */
  listening?: string;
  /** The variables a profile gives the cases (default: the running reference's `vars`). */
  vars?: Record<string, unknown>;
  /** The request that moves its clock (`${ms}` set by the engine). */
  clock?: { advance: HttpRequestSpec };
  /** Scripted user-agent actions (e.g. requests to its user-agent bridge). */
  agent?: { mode: 'scripted'; actions: Record<string, Step[]> };
  /**
   * The profile's `database:` for a reference whose database lives in its own process's memory:
   * the command line of a process that serves a fresh copy (a run in another process cannot
   * reach the served one's memory).
   */
  database?: { exec: string[] };
}

/** Starts the embedded reference implementation on loopback ephemeral ports, on the given clock. */
export interface ReferenceTarget {
  start(opts: ReferenceStartOptions): Promise<RunningReference>;
  /** It names `publicUrl` in everything it advertises (`specgate serve --public-url`). */
  takesPublicUrl?: boolean;
  /**
   * The same reference, able to run in a worker thread of a run (so it answers on another core
   * while the engine works); `start` stays the in-process way (tests, `specgate serve`).
   */
  worker?: WorkerReferenceEntry;
}

/**
 * Where a worker thread finds a reference: the module it imports and the {@link ReferenceTarget}
 * that module exports. That reference may hand back vars, description, served, exec, an agent
 * and a document database (their actions and commands are performed in the worker), never a SQL
 * database: what crosses a thread boundary as data. It runs on a VirtualClock whose time the
 * engine's clock moves.
 */
export interface WorkerReferenceEntry {
  /** URL of the compiled module (`new URL('./reference-target.js', import.meta.url).href`). */
  module: string;
  /** Name of its exported ReferenceTarget. */
  name: string;
  /**
   * What the run's own thread adds to the reference the worker started (variables, a stop
   * step of its own), as `start` adds it to the in-process one.
   */
  around?(running: RunningReference): RunningReference;
}

export interface ReferenceStartOptions {
  clock: ClockControl & Clock;
  /** Fixed port for `specgate serve --port N`; 0 or absent means an ephemeral one. */
  port?: number;
  /** True under `specgate serve`: expose the clock-control hook so external runs can move time. */
  standalone?: boolean;
  /**
   * The origin clients reach it at when that is not where it listens (behind a forwarding
   * proxy): its variables, URLs in answers and redirects name this origin instead.
   */
  publicUrl?: string;
}
