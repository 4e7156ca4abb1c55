import type { Exchange, LoadedSuite } from '../model.js';
import type { Registry } from '../registry.js';
import type { CheckContext, FailureInput } from '../suite-module.js';
import type { ExecRunner, HttpClient, SuiteTarget, UserAgentDriver } from '../../targets/types.js';
import type { StopSource } from '../../targets/stop-source.js';
import type { AdvertisedValues, HeardAnswer } from './advertised-values.js';
import type { FailureNote } from './advertised-note.js';

/**
 * What a step sees of the case it runs in: the narrow scope below `CaseRun`, so that step
 * executors (`steps.ts`, `step-io.ts`, `query-step.ts`, `observation.ts`) depend on this
 * interface and not on the case runner or the whole suite runtime.
 */
export interface StepScope {
  readonly caseId: string;
  /** The requirements the case judges. */
  readonly caseRequirements: readonly string[];
  /** The case's AbortSignal (made when first read: prefer `stopped` to ask whether it aborted). */
  readonly signal: AbortSignal;
  /** The case was told to stop: its signal's `aborted`, without making the signal. */
  readonly stopped: boolean;
  /** What stops the case, for the engine's own HTTP client, which then needs no signal. */
  readonly stopSource: StopSource;
  readonly suite: LoadedSuite;
  readonly target: SuiteTarget;
  /** Named checks, codecs and schemas. */
  readonly registry: Registry;
  readonly http: HttpClient;
  /** Runs processes (output caps, timeouts, process-group cleanup). */
  readonly processes: ExecRunner;
  resolve(value: unknown, vars?: Record<string, unknown>): unknown;
  /** Masks the target's secrets in `text`: call it before cutting a target's text down for a report. */
  redact(text: string): string;
  /**
   * The target issued these credentials (or the harness sends them): every report masks them
   * from now on, in what the case kept before too (a case's result is masked when it ends).
   */
  learn(values: readonly string[]): void;
  /** Records an exchange (materialised and redacted only when reported). */
  note(ex: () => Exchange): void;
  /** Records a conformance failure; without a requirement it counts against all of the case's. */
  fail(f: FailureInput, exchange?: () => Exchange): void;
  /**
   * `count` observations judged `requirement` (every requirement of the case when none is
   * named); a count of 0 records `why` nothing could be judged, unless something else observed it.
   */
  observe(requirement: string | undefined, count: number, why?: string): void;
  /** Runs a typed check, counting one observation for each of `judges` it said nothing about. */
  counted(judges: readonly string[], work: () => Promise<void>): Promise<void>;
  /** Lets time pass for the target (skips the case when time cannot pass). */
  wait(ms: number): Promise<void>;
  agentFor(vars: Record<string, unknown>): UserAgentDriver | undefined;
  /** What the steps that share `vars` took from the target's answers (one record per variable set). */
  advertised(vars: Record<string, unknown>): AdvertisedValues;
  /**
   * An answer of the target arrived (kept only while {@link listen} collects them); a label that
   * costs something to make may be given as what holds it, read only when the answer is kept.
   */
  heard(label: string | { readonly label: string }, body: unknown): void;
  /** Collects the target's answers until `stop` (for a typed check that sets variables). */
  listen(): { answers: HeardAnswer[]; stop(): void };
  /**
   * From now until the matching {@link endNote}, `note` explains the failures recorded: each gets
   * the note's lead before its message and its tail after it (advertised-note.ts). Notes nest,
   * the innermost explaining. (A pair of calls, not a wrapper: no promise or closure per step.)
   */
  beginNote(note: () => FailureNote | undefined): void;
  endNote(): void;
  /** Whether the case judges `requirement` and has not failed it yet (a broken precondition fails it then). */
  failsFirst(requirement: string): boolean;
  checkContext(vars: Record<string, unknown>, contract?: { check: string; judges: readonly string[] | 'case'; precondition?: string }): CheckContext;
}
