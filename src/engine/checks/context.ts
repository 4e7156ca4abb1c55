import type * as fc from 'fast-check';
import type { ClockControl } from '../clock.js';
import type { ApiContext } from '../api/sequence-model.js';
import type { Exchange, ExecSpec, HttpRequestSpec, PropertyInfo } from '../model.js';
import type { ExecConfig, ExecResult, ExecRunner, HttpClient, HttpResponse, UserAgentDriver } from '../../targets/types.js';
import type { DatabaseTarget, DocumentDatabaseTarget } from '../../targets/database/types.js';

export interface FailureInput {
  /** The requirement broken; without it, every requirement of the case counts as broken. */
  requirement?: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  /** What the message was made from, kept for the JSON report only (a schema failure's own errors). */
  detail?: unknown;
  exchange?: Exchange;
}

export interface PropertyOptions<T = unknown> {
  /** At most this many runs (the run's --runs may lower it, never raise it); default: --runs, else 100. */
  runs?: number;
  /** Replay label, e.g. the generator name, for the report. */
  label?: string;
  /** Inputs tried before the generated ones: edges that a few runs might not reach. */
  examples?: readonly T[];
  /**
   * Runs that may go on at once (default 1), for a predicate whose runs do not depend on one
   * another (no shared counter, no order on the target): the values, a failure's path and its
   * shrinking stay those of the runs one after another. The run's --concurrency bounds it.
   */
  parallel?: number;
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
  /** What the run is for, put before the command line in the recorded exchange. */
  label?: string;
  /** Richer request and response for the recorded exchange (e.g. the decoded answer). */
  describe?(result: ExecResult): { summary?: string; request?: unknown; response?: unknown };
}

/** What a typed check works with. */
export interface CheckContext {
  suite: string;
  caseId: string;
  requirements: readonly string[];
  vars: Record<string, unknown>;
  /** The suite's API table and registered transitions, when it has an `api.yaml` (for the `api.*` checks). */
  api?: ApiContext;
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
  /** The target's default executable, when it has one. */
  execConfig: ExecConfig | undefined;
  /**
   * The target's SQL database (what `query:` steps use: a profile's `database: { url:
   * "postgres://..." }` or the reference's own); undefined when the target has none. Queries go
   * to the target's one session, unrecorded: a check records what it reports with `exchange`.
   */
  database?: DatabaseTarget;
  /**
   * The target's document database (what `command:` steps use: `mongodb://`, a process speaking
   * JSON lines, or the reference's own); undefined when the target has none. Every command is
   * recorded in the report like a `command:` step's, and is abandoned when the case ends.
   */
  documents?: DocumentDatabaseTarget;
  /** The target's clock: virtual for reference targets, a hook or real time otherwise. */
  clock: ClockControl | undefined;
  agent: UserAgentDriver | undefined;
  signal: AbortSignal;
  /**
   * An external target's per-request deadline (ms): the profile's `http.timeoutMs`, or its
   * default; undefined for an embedded reference. What a check does to the target outside
   * `request` (a page a browser opens) takes no longer, so that a target that never answers
   * fails as fast through a browser as through a request.
   */
  httpTimeoutMs?: number;
  /**
   * Observations shared by the cases of this suite run, keyed by check and arguments: judged
   * checks declared with `share` (src/engine/checks/judged.ts) keep one run per key here.
   */
  observations: Map<string, Promise<unknown>>;
  /** Run seed (fast-check) and default number of runs. */
  seed: number;
  runs: number;
  /** Record an exchange for the report (redacted by the engine). */
  exchange(ex: Exchange): void;
  /** Record a conformance failure; the check may go on. */
  fail(f: FailureInput): void;
  /**
   * `count` observations (records, exchanges, generated inputs, outputs) judged `requirement`
   * (every requirement of the case when none is named). A check that names neither this nor
   * {@link noEvidence} for a requirement it judges counts one observation for it when it ends.
   */
  observed(requirement?: string, count?: number): void;
  /**
   * Nothing applicable to `requirement` was found (an empty list, no input of the kind it
   * judges): it is untested with `reason` unless something else observed it. Never a pass.
   */
  noEvidence(requirement: string, reason: string): void;
  /**
   * The case cannot judge anything past this point because `requirement` (a rule it rests on)
   * does not hold: ends the case blocked by it. Findings already recorded stand. When the case
   * itself judges `requirement`, that rule fails with `reason` (unless it already failed in this
   * case) and the case's other requirements are blocked by it.
   */
  blocked(requirement: string, reason: string, exchange?: Exchange): never;
  /**
   * One of the case's requirements, `requirement`, cannot be judged because `by` (a rule it
   * rests on) does not hold; the case goes on judging the rest.
   */
  blockedOne(requirement: string, by: string, reason: string, exchange?: Exchange): void;
  /**
   * The step's `precondition:` owner, when it names one: the rule whose set-up the check does
   * first (creating an item to work on). A check whose set-up fails calls `blocked` with it.
   */
  precondition?: string;
  /**
   * Runs a fast-check property with the run's seed (and replay path, when replaying); a
   * falsified property is recorded as a failure carrying seed, path, shrunk counterexample and
   * the replay command. The predicate returns a FailureInput (or throws) to falsify.
   */
  property<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<FailureInput | void>, opts?: PropertyOptions<T>): Promise<PropertyInfo>;
  /** Lets seconds pass on the target clock (virtual, hook, or real when slow runs are allowed). */
  wait(seconds: number): Promise<void>;
  /** Resolve `${...}` expressions against the case's variables. */
  resolve(value: unknown): unknown;
  /**
   * Ends the case as skipped with this reason (its requirements stay untested): for a tool the
   * check needs that this machine lacks (a browser), said with what to install. Findings
   * already recorded still count.
   */
  skip(reason: string): never;
  /**
   * Ends the case as not applicable with this reason: what it judges does not apply to this
   * target (it has no such mode, or plays only the other side), which is neither a failure nor
   * a gap in coverage. The case is skipped, and its requirements are reported not applicable
   * (JUnit: skipped, "not applicable: <reason>") unless another case judged them. Findings
   * already recorded still count.
   */
  notApplicable(reason: string): never;
  /**
   * The name the target uses for a header the spec names neutrally (the profile's `headers:`
   * mapping, e.g. CTX-Protocol-Version -> MCP-Protocol-Version); the neutral name when unmapped.
   * Checks that send or read such headers themselves, or tell a client under test which to use.
   */
  headerName(neutral: string): string;
}

