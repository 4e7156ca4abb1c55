/**
 * The data the engine works on: requirements and cases as loaded from suite files
 * (shapes mirror `schemas/*.schema.json`), and the results it produces.
 * The engine knows no spec: everything suite-specific arrives through these shapes
 * and the names registered in a SuiteModule.
 */

import type { ApiTable } from './api/table.js';

/**
 * MUST, SHOULD and MAY come from the spec's wording. STRICTER is an expectation the spec does not
 * state but careful implementations meet (a code used once, a bad file name refused rather than
 * only not written): judged and reported like the others, it fails the gate only under
 * `--stricter`, so a report never passes off a house rule as the spec's.
 */
export type Level = 'MUST' | 'SHOULD' | 'MAY' | 'STRICTER';

/** Which failed levels fail the gate: MUST always, SHOULD with `--strict`, STRICTER with `--stricter` (which implies `--strict`). */
export interface Gating {
  strict: boolean;
  stricter: boolean;
}

/** Where something came from in a suite file (1-based line and column). */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** One normative statement of a spec (an entry of `suites/<suite>/requirements.yaml`). */
export interface Requirement {
  id: string;
  level: Level;
  /** `<spec file>#<section>` */
  source: string;
  text: string;
  /** Set when the statement cannot be checked from outside; the reason stays visible in reports. */
  excluded?: string;
  /**
   * The side of the protocol the statement binds (`server`, `client`, `plugin`, ...): one of the
   * sides its suite declares in `suite.yaml`. A run that judges one side (`--side`) reports the
   * other sides' requirements not applicable.
   */
  side?: string;
  location?: SourceLocation;
}

/** A matcher tree: a literal (deep partial equality) or an operator object (`$pattern`, `$length`, ...). */
export type Matcher = unknown;

export interface HttpRequestSpec {
  method?: string;
  /** Absolute URL (expressions allowed); optional when the request names an API operation. */
  url?: string;
  /** An operation ID of the suite's API table: method, URL, auth and required headers come from it. */
  operation?: string;
  /** Path parameters of the operation, by name. */
  params?: Record<string, unknown>;
  /** `false`: send an operation's request without the API table's credentials. */
  auth?: boolean;
  headers?: Record<string, string>;
  query?: Record<string, unknown>;
  form?: Record<string, unknown>;
  json?: unknown;
  raw?: string;
  /** `json`, `xml`, `form` or a literal Accept header value. */
  accept?: string;
  timeoutMs?: number;
}

export interface HttpExpect {
  status?: Matcher;
  headers?: Record<string, Matcher>;
  body?: Matcher;
  /** Name of a registered JSON Schema (`<suite>/<name>`) the parsed body must satisfy. */
  schema?: string;
  /** Attribute failures of this expectation to this requirement instead of all of the case's. */
  requirement?: string;
  /** JSON path of what this expectation judges (its items count as observations; none: untested). */
  evidence?: string;
}

export interface StdinSpec {
  text?: string;
  hex?: string;
  base64?: string;
  /** Encode `value` with a registered codec (e.g. `plugin.CodeGeneratorRequest`). */
  encode?: { codec: string; value: unknown };
  /** Name of a variable that holds bytes (Uint8Array) or a string. */
  from?: string;
}

export interface ExecSpec {
  /** Overrides the target's command (argv[0] and leading args). */
  command?: string[];
  args?: string[];
  stdin?: StdinSpec;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface ExecExpect {
  exitCode?: Matcher;
  /** Codec used to decode stdout before `stdout` is matched (default: UTF-8 text). */
  decode?: string;
  stdout?: Matcher;
  stderr?: Matcher;
  requirement?: string;
  /** JSON path of what this expectation judges (see HttpExpect.evidence). */
  evidence?: string;
}

export interface RepeatSpec {
  /** Upper bound on attempts; the engine never repeats without one. */
  max: number;
  /** Stop repeating once this expectation holds. Without it, all `max` attempts run. */
  until?: HttpExpect & ExecExpect;
  /** Wait between attempts (seconds, expression allowed); time-bound when > 0. */
  wait?: string | number;
}

interface StepBase {
  name?: string;
  /**
   * The requirement that owns this step: the case cannot judge anything past it when its
   * expectations do not hold. The case then stops; its requirements are blocked by this one
   * (when the case lists it, it fails and the others are blocked).
   */
  precondition?: string;
  /** JSONPath-like (`$.a.b[0]`), `header:Name`, `status`, `body`, `exitCode`, `stderr`, `stdout`. */
  capture?: Record<string, string>;
  /** A number means exactly that many attempts; an object repeats until a condition. */
  repeat?: number | RepeatSpec;
}

export interface RequestStep extends StepBase {
  request: HttpRequestSpec;
  expect?: HttpExpect;
}
export interface ExecStep extends StepBase {
  exec: ExecSpec;
  expect?: ExecExpect;
}
export interface CheckStep extends StepBase {
  /** A registered typed check, `<suite>.<name>`. */
  check: string;
  with?: Record<string, unknown>;
}
export interface WaitStep extends StepBase {
  /** Seconds to let pass (`900`, `"900s"`, `"${interval}s"`, `"10m"`). Uses the target clock. */
  wait: string | number;
}
export interface AgentStep extends StepBase {
  /** A user-agent action (approve, deny, enter-user-code, ...) performed as the target profile says. */
  agent: string;
  with?: Record<string, unknown>;
}
export interface SetStep extends StepBase {
  /** Assign variables from expressions. */
  set: Record<string, unknown>;
}

/** One SQL statement for the target's database, with positional parameters (`$1`, `$2`, ...). */
export interface QuerySpec {
  sql: string;
  params?: unknown[];
  timeoutMs?: number;
}

/** Matchers on a query's answer; without `error`, a statement the database rejects fails the step. */
export interface QueryExpect {
  rows?: Matcher;
  rowCount?: Matcher;
  fields?: Matcher;
  /** The database's refusal as `{ code, message }` (code: the SQLSTATE). */
  error?: Matcher;
  requirement?: string;
  /** JSON path of what this expectation judges (see HttpExpect.evidence). */
  evidence?: string;
}

export interface QueryStep extends StepBase {
  query: QuerySpec;
  /** A query runs once: a case that polls a database repeats it with its own steps. */
  repeat?: undefined;
  expect?: QueryExpect;
}

/**
 * Matchers on a document database's answer to a command; without `error`, a command the
 * database refuses (a reply with `ok: 0`) fails the step.
 */
export interface CommandExpect {
  /** The reply document (`{ ok: 1, cursor: { firstBatch: [...] } }`). */
  reply?: Matcher;
  /** The database's refusal as `{ code, number, message }` (code: the code name, number: the numeric code). */
  error?: Matcher;
  requirement?: string;
  /** JSON path of what this expectation judges (see HttpExpect.evidence). */
  evidence?: string;
}

/** One command for the target's document database: the document as written, its first key naming the operation. */
export interface CommandStep extends StepBase {
  command: Record<string, unknown>;
  /** Longest the database may take to answer this command (ms); the target's own limit applies too. */
  timeoutMs?: number;
  /** A command runs once: a case that polls a database repeats it with its own steps. */
  repeat?: undefined;
  expect?: CommandExpect;
}

export type Step = RequestStep | ExecStep | CheckStep | WaitStep | AgentStep | SetStep | QueryStep | CommandStep;

export interface PropertySpec {
  /** A registered generator, `<suite>.<name>`; the value is `${case}` in steps. */
  generate: string;
  /** A registered oracle, `<suite>.<name>`; its answer is `${oracle}` in steps. */
  oracle?: string;
  runs?: number;
  /**
   * Runs that may go on at once (default 1): the case's runs do not depend on one another (each
   * makes its own items, signs in on its own). The run's --concurrency bounds it; a browser agent
   * gives each run side by side a context of its own.
   */
  parallel?: number;
}

export interface CaseDef {
  id: string;
  /**
   * The suite the case belongs to: how a case file kept outside the suite's folder (the
   * regression cases a run writes, a team's own cases) says which suite it extends.
   */
  suite?: string;
  description?: string;
  requirements: string[];
  tags?: string[];
  timeoutMs?: number;
  vars?: Record<string, unknown>;
  /** Always skipped, with this reason (kept visible in reports). */
  skip?: string;
  /** Run only when these variables are set by the target (others: skipped with a reason). */
  needs?: string[];
  /**
   * Requirements (of this suite, not the case's own) this case relies on holding: when one of
   * them fails in the run, this case's failures are consequences, reported as blocked by it.
   */
  assumes?: string[];
  property?: PropertySpec;
  /**
   * `judge`: a recording (`--target har:`) may stand in for the case's requests: its
   * expectations hold of any recorded exchange that fits them, whatever happened before or
   * between (docs/passive.md). Without it, a case of requests stays untested in passive mode.
   */
  passive?: 'judge';
  steps: Step[];
  location: SourceLocation;
}

/** A loaded suite: its catalog and cases, and the module that gives names to its code. */
export interface LoadedSuite {
  name: string;
  dir: string;
  requirements: Requirement[];
  cases: CaseDef[];
  /** The variables a target gives the cases (`suite.yaml` `vars:`), when the suite declares them. */
  vars?: Record<string, { description: string; secret?: boolean; required?: boolean; example?: unknown }>;
  /** The suite's HTTP API described as data (`api.yaml`), when it has one. */
  api?: ApiTable;
  /**
   * The sides of the protocol the suite judges (`suite.yaml` `sides:`), by name, when it
   * declares them; then every requirement names one, and a case judges the side of its requirements.
   */
  sides?: Record<string, { description: string }>;
  /**
   * The parts of the suite (`suite.yaml` `parts:`), by name, when it declares them: each holds
   * the requirements its ID globs match, and `specgate run --part <name>` judges only those
   * (src/engine/selection.ts).
   */
  parts?: Record<string, { description: string; requirements: string[] }>;
  /** Every statement of the specification parts the suite judges, with what judges it (`trace.yaml`), when the suite has one. */
  trace?: Trace;
}

/**
 * The requirements a run selected (`--part`, `--requirement`, `--case`, or a profile's
 * `select:`), when it selected some: how it chose them, for reasons and report properties, and
 * their IDs. A requirement outside it that no case of the run covers is reported not selected.
 */
export interface Selection {
  label: string;
  requirements: string[];
}

// ---------------------------------------------------------------- results

export type CaseOutcome = 'passed' | 'failed' | 'errored' | 'skipped';

/**
 * `not-applicable`: the requirement does not apply to this run (it binds a side the run does
 * not judge, or a mode the target does not have); never a failure, never a gap in coverage.
 * `not-selected`: the run was asked to judge other requirements (`--part`, `--requirement`,
 * `--case`, a profile's `select:`) and no case of the run covers this one; never a failure,
 * never a gap in coverage.
 */
export type RequirementStatus = 'passed' | 'failed' | 'untested' | 'blocked' | 'excluded' | 'expected-failure' | 'not-applicable' | 'not-selected';

/**
 * Why a case could not judge its requirements: a rule it relies on (an assumed requirement that
 * failed in the run, or the owner of a precondition step that did not hold), with what showed it.
 */
export interface BlockedBy {
  requirement: string;
  message: string;
  exchange?: Exchange;
}

/** One request/response (or process run) as observed, secrets already redacted. */
export interface Exchange {
  kind: 'http' | 'exec' | 'query' | 'command' | 'note';
  /** Short one-line summary, e.g. `POST /login/oauth/access_token -> 200`. */
  summary: string;
  request?: unknown;
  response?: unknown;
  durationMs?: number;
}

export interface PropertyInfo {
  seed: number;
  runs: number;
  /** fast-check replay path of the shrunk counterexample. */
  path?: string;
  counterexample?: unknown;
  shrinks?: number;
  /** The exact command that replays this failure. */
  replay?: string;
}

/** One expectation or check finding that failed: what a failure of a requirement is made of. */
export interface Assertion {
  message: string;
  expected?: unknown;
  actual?: unknown;
  /** What the message was made from, for machine readers (the JSON report): a schema failure's own errors. */
  detail?: unknown;
  exchange?: Exchange;
}

/**
 * A requirement a case broke: one per requirement per case. When several assertions of the
 * case broke it, `assertions` lists them in order (each with its values and exchange), and
 * `message` sums them up; `exchange` is then the first one's.
 */
export interface Failure {
  requirement: string;
  message: string;
  /** The failed assertions of this requirement in the case, when there are two or more. */
  assertions?: Assertion[];
  expected?: unknown;
  actual?: unknown;
  /** What the message was made from, for machine readers (the JSON report): a schema failure's own errors. */
  detail?: unknown;
  exchange?: Exchange;
  property?: PropertyInfo;
}

export interface CaseResult {
  suite: string;
  id: string;
  description?: string;
  requirements: string[];
  outcome: CaseOutcome;
  /** Why skipped or errored. */
  reason?: string;
  /**
   * A skipped case that found what it judges does not apply to this target
   * (`ctx.notApplicable`): its requirements are not applicable unless another case judged them.
   */
  notApplicable?: boolean;
  errorCode?: string;
  failures: Failure[];
  /** The last exchanges of the case (bounded), for the report. */
  exchanges: Exchange[];
  durationMs: number;
  location?: SourceLocation;
  property?: PropertyInfo;
  /** Baseline status of the case itself when the baseline names it. */
  baseline?: 'expected-failure' | 'stale';
  /** The case drew on the run's seed (generated inputs): another seed may judge it on other values. */
  seeded?: true;
  /** The command that replays this case alone (set on failed cases). */
  replay?: string;
  /** The rule whose failure kept this case from judging: the case is skipped, its requirements blocked. */
  blockedBy?: BlockedBy;
  /** Requirements of the case blocked one by one (a judge found the rule it rests on broken), the case itself going on. */
  blocked?: Record<string, BlockedBy>;
  /** What the case found before it turned out to be blocked: consequences of the blocking rule, kept as evidence. */
  blockedFailures?: Failure[];
  /** The case's assumed requirements (from its definition), so verdicts can be recomputed from results alone. */
  assumes?: string[];
  /** Observations that judged each requirement (records, exchanges, generated inputs, outputs). */
  evidence?: Record<string, number>;
  /** Why a requirement had nothing to judge in this case (an empty list, no applicable input). */
  noEvidence?: Record<string, string>;
}

export interface BaselineEntry {
  /** A requirement ID or a case ID (`<suite>/<case-id>` or bare case ID). */
  id: string;
  reason: string;
  expires?: string;
}

export interface RequirementVerdict {
  id: string;
  suite: string;
  level: Level;
  text: string;
  source: string;
  status: RequirementStatus;
  /** The side of the protocol it binds, when its suite declares sides. */
  side?: string;
  /** IDs of the cases that cover it. */
  cases: string[];
  failures: Failure[];
  /** For untested/excluded/expected-failure/not-applicable: why. */
  reason?: string;
  /** Cases that errored or were skipped while covering it. */
  errored: number;
  skipped: number;
  /** A baseline lists it as expected to fail, but it passed. */
  stale?: boolean;
  baseline?: BaselineEntry;
  /** For blocked: the failed requirements that kept its cases from judging it. */
  blockedBy?: string[];
  /** Observations that judged it in the cases that did (0 for one that was not judged; absent in reports written before evidence was counted). */
  evidence?: number;
}

export interface SuiteResult {
  name: string;
  target: string;
  cases: CaseResult[];
  requirements: RequirementVerdict[];
  durationMs: number;
  /** A suite-level fault (reference target failed to start, ...). */
  error?: { code: string; message: string };
  /** The sides this run judged, when it judged only some (`--side`); absent: every side. */
  sides?: string[];
  /** The requirements this run selected, when it selected some (`--part`, `--requirement`); absent: every one. */
  selection?: Selection;
  properties: Record<string, string>;
  /** The suite's statement trace summed up (coverage by spec section), when the suite has one. */
  trace?: TraceSummary;
  /**
   * The version of the suite that judged it, when the suite declares one (SuiteModule.version);
   * absent: the suite ships with specgate and has specgate's version.
   */
  version?: string;
}

export interface RunSummary {
  cases: Record<CaseOutcome, number> & { total: number };
  /** Per status; `not-selected` is absent from reports written before the status existed. */
  requirements: Record<Exclude<RequirementStatus, 'not-selected'>, number> & { 'not-selected'?: number; total: number; stale: number };
  /** Gating failures by level (SHOULD counts only with --strict, STRICTER only with --stricter). */
  gatingFailures: number;
  /**
   * The requirements at the gating levels this run could judge (not excluded, not applicable),
   * and how many of them it judged (passed, failed or expected to fail).
   */
  judged: { gating: number; judged: number };
  /** The `--require-judged` percentage the verdict held the run to (absent: more than none). */
  requireJudged?: number;
  staleBaseline: BaselineEntry[];
  expiredBaseline: BaselineEntry[];
  /** 130 (SIGINT) or 143 (SIGTERM) when the run was interrupted, whatever the cases that ran found. */
  exitCode: 0 | 1 | 2 | 3 | 4 | 130 | 143;
  /** Plain-words verdict line. */
  verdict: string;
}

/** One machine's part of a sharded run (`run --shard k/n`); `merge` puts the parts back together. */
export interface ShardInfo {
  /** 1-based. */
  index: number;
  total: number;
  /** Every case the whole run selects, per suite, in run order: what the shards together cover, once each. */
  selected: Record<string, string[]>;
  /**
   * What the split was balanced by (`--shard-timings`): the durations in ms, by
   * `<suite>/<case-id>`, of the selected cases the timing file knew, and the concurrency a
   * pooled case's duration was divided by. Absent: split by hash. Either way `merge` can
   * compute the split again and tell whether each part holds the cases of its shard.
   */
  timings?: { durations: Record<string, number>; concurrency: number };
}

/**
 * Why a run stopped before every selected case ran: the signal that stopped it. The caller
 * passes it as the reason of RunOptions.signal; any other abort counts as SIGINT (the user
 * stopped the run).
 */
export interface Interruption {
  signal: 'SIGINT' | 'SIGTERM';
}

export interface RunResult {
  startedAt: string;
  durationMs: number;
  seed: number;
  /** SHOULD failures gated (`--strict`, or implied by `--stricter`). */
  strict: boolean;
  /** STRICTER failures gated too (`--stricter`); absent in reports written before the level existed. */
  stricter?: boolean;
  suites: SuiteResult[];
  requirements: RequirementVerdict[];
  summary: RunSummary;
  /** Set when this run is one shard of a larger one. */
  shard?: ShardInfo;
  /** Set when the run was stopped early: the cases it did not run are skipped as interrupted. */
  interrupted?: Interruption;
}

// ---------------------------------------------------------------- statement traces

/**
 * A suite's statement trace (`suites/<suite>/trace.yaml`, schemas/trace.schema.json): every
 * statement of the specification parts it judges, each with the requirements that judge it, or
 * why none can.
 */
export interface Trace {
  /** The specification document's file name. */
  document: string;
  /** The interfaces (heading letters) of the document the suite judges; absent: the whole document. */
  interfaces?: string[];
  statements: TraceEntry[];
}

/** One statement of the document, as the trace names it. */
export interface TraceEntry {
  /** The headings above it, joined by " > " (spec-statements.ts SECTION_SEPARATOR). */
  section: string;
  /** Words of the statement, enough to find it alone in its section. */
  quote: string;
  /** The requirements that judge it; beside `informative`, the excluded ones that record what it leaves open. */
  requirements?: string[];
  excluded?: string;
  informative?: string;
  note?: string;
  location?: SourceLocation;
}

/**
 * What a statement comes to: judged (a requirement that is not excluded judges it), excluded
 * (a rule nothing can judge from outside: its entry's reason, or its requirements' exclusions),
 * or informative (it states no behaviour).
 */
export type StatementStatus = 'judged' | 'excluded' | 'informative';

/** How many statements of one interface (or of none: {@link SHARED}) a trace has, by status. */
export interface InterfaceCoverage {
  interface: string;
  statements: number;
  judged: number;
  excluded: number;
  informative: number;
}

/** One statement as a report shows it. */
export interface TracedStatement {
  quote: string;
  status: StatementStatus;
  requirements: string[];
  /** The reason (excluded, informative) or the entry's note (judged). */
  reason?: string;
}

/** A section of the document and its statements. */
export interface TracedSection {
  section: string;
  interfaces: string[];
  statements: TracedStatement[];
}

/** A suite's trace as reports show it: the document, the counts by interface, the statements by section. */
export interface TraceSummary {
  document: string;
  interfaces: InterfaceCoverage[];
  sections: TracedSection[];
}
