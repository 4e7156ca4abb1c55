import type { Exchange, LoadedSuite } from '../model.js';
import type { Registry } from '../registry.js';
import type { SuiteModule } from '../suite-module.js';
import type { ExecRunner, HttpClient, SuiteTarget } from '../../targets/types.js';
import type { TimeMode } from './time.js';

/** Hides secrets in anything that leaves the engine. */
export interface Redaction {
  redactString(s: string): string;
  redactDeep(v: unknown): unknown;
  /** Hides these too from now on: credentials the target issued during the run. */
  learn(values: Iterable<string>): void;
}

/** Everything a case needs from its suite's run, shared by all cases of that suite. */
export interface SuiteRuntime {
  suite: LoadedSuite;
  module: SuiteModule;
  registry: Registry;
  target: SuiteTarget;
  http: HttpClient;
  /** The per-request deadline `http` applies to an external target (ms), for checks that reach it otherwise (a browser). */
  httpTimeoutMs?: number;
  exec: ExecRunner;
  timeMode: TimeMode;
  runSeed: number;
  /** The most runs of one property that go on at once (the run's bound on cases in flight). */
  propertyWidth: number;
  /** --runs: overrides every property's number of runs. */
  runs: number | undefined;
  /** --path: fast-check replay path for the one case being replayed. */
  replayPath: string | undefined;
  redaction: Redaction;
  /** The command that replays one case (with a fast-check path, for property failures). */
  replay(caseId: string, seed: number, path?: string): string;
  caseTimeoutMs: number;
  /** Shrink failing generated inputs to minimal ones (off with --no-shrink). */
  shrink: boolean;
  /** Receives every exchange as it happens (redacted); unset, exchanges are only kept for failing cases. */
  onExchange: ((caseId: string, ex: Exchange) => void) | undefined;
  env: Record<string, string | undefined>;
  /** Observations judged checks share across the cases of this suite run (keyed by check and arguments). */
  observations: Map<string, Promise<unknown>>;
}
