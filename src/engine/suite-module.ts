import type * as fc from 'fast-check';
import type { Clock, ClockControl } from './clock.js';
import type { Exchange, ExecSpec, HttpRequestSpec, PropertyInfo } from './model.js';
import type { ExecConfig, ExecResult, ExecRunner, HttpClient, HttpResponse, UserAgentDriver } from '../targets/types.js';
import type { TypedCheck } from './checks/contract.js';

/**
 * What a suite gives the engine by name. `suites/index.ts` is the one place that lists the
 * built-in suites; YAML refers to these names as `<suite>.<name>`.
 */
export interface SuiteModule {
  name: string;
  /** Absolute folder holding `requirements.yaml` and the case files. */
  dir: string;
  title?: string;
  checks?: Record<string, TypedCheck | LegacyCheck>;
  generators?: Record<string, GeneratorFactory>;
  oracles?: Record<string, Oracle>;
  codecs?: Record<string, Codec>;
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
  completeTarget?(target: TargetParts): TargetParts;
}

/** The parts of an external target a suite may complete. */
export interface TargetParts {
  vars: Record<string, unknown>;
  exec?: ExecConfig;
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

export interface FailureInput {
  /** The requirement broken; without it, every requirement of the case counts as broken. */
  requirement?: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  exchange?: Exchange;
}

export interface PropertyOptions {
  runs?: number;
  /** Replay label, e.g. the generator name, for the report. */
  label?: string;
}

/** An HTTP answer as a check sees it through `ctx.request`, with its recorded exchange. */
export interface CheckResponse extends HttpResponse {
  exchange: Exchange;
}

/** A process run as a check sees it through `ctx.exec`, with its recorded exchange. */
export interface CheckExecResult extends ExecResult {
  exchange: Exchange;
}

/**
 * A process a check runs through `ctx.exec`: `command` overrides the target's executable
 * (argv[0] and leading arguments); stdin is bytes.
 */
export interface CheckExec extends Omit<ExecSpec, 'stdin'> {
  stdin?: Uint8Array;
  cwd?: string;
  maxStdoutBytes?: number;
}

/** What a typed check works with. */
export interface CheckContext {
  suite: string;
  caseId: string;
  requirements: readonly string[];
  vars: Record<string, unknown>;
  /**
   * Sends a request the way a `request:` step does (expressions already resolved by the
   * caller): header names mapped for the target, the exchange recorded and redacted, the
   * target's timeout and body cap applied. The answer's body is parsed as for steps.
   */
  request(spec: HttpRequestSpec): Promise<CheckResponse>;
  /**
   * Runs a process the way an `exec:` step does: the target's executable unless `command`
   * is given, its output capped, the whole process group stopped on timeout or when the case
   * ends, the run recorded.
   */
  exec(spec: CheckExec): Promise<CheckExecResult>;
  /** @deprecated raw client without mapping or recording; use `request`. Kept while checks move over. */
  http: HttpClient;
  /** @deprecated raw runner without recording; use `exec`. Kept while checks move over. */
  execRunner: ExecRunner;
  /** The target's default executable, when it has one. */
  execConfig: ExecConfig | undefined;
  /** The target's clock: virtual for reference targets, a hook or real time otherwise. */
  clock: ClockControl | undefined;
  agent: UserAgentDriver | undefined;
  signal: AbortSignal;
  /** Run seed (fast-check) and default number of runs. */
  seed: number;
  runs: number;
  /** Record an exchange for the report (redacted by the engine). */
  exchange(ex: Exchange): void;
  /** Record a conformance failure; the check may go on. */
  fail(f: FailureInput): void;
  /**
   * Runs a fast-check property with the run's seed (and replay path, when replaying); a
   * falsified property is recorded as a failure carrying seed, path, shrunk counterexample and
   * the replay command. The predicate returns a FailureInput (or throws) to falsify.
   */
  property<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<FailureInput | void>, opts?: PropertyOptions): Promise<PropertyInfo>;
  /** Lets seconds pass on the target clock (virtual, hook, or real when slow runs are allowed). */
  wait(seconds: number): Promise<void>;
  /** Resolve `${...}` expressions against the case's variables. */
  resolve(value: unknown): unknown;
}

/** @deprecated the bare-function form; declare checks with `defineCheck` (src/engine/checks/contract.ts). */
export type LegacyCheck = (ctx: CheckContext, args: Record<string, unknown>) => Promise<void>;
export type { TypedCheck };

export interface RunningReference {
  description: string;
  vars: Record<string, unknown>;
  exec?: ExecConfig;
  agent?: UserAgentDriver;
  stop(): Promise<void>;
}

/** Starts the embedded reference implementation on loopback ephemeral ports, on the given clock. */
export interface ReferenceTarget {
  start(opts: ReferenceStartOptions): Promise<RunningReference>;
}

export interface ReferenceStartOptions {
  clock: ClockControl & Clock;
  /** Fixed port for `specgate serve --port N`; 0 or absent means an ephemeral one. */
  port?: number;
  /** True under `specgate serve`: expose the clock-control hook so external runs can move time. */
  standalone?: boolean;
}
