import type { HttpRequestSpec, SourceLocation, Step } from '../engine/model.js';
import type { PageStep } from './browser/page-steps.js';
import type { DatabaseSection } from './database/types.js';
import type { ExecConfig } from './types.js';

/**
 * How user-agent actions are performed: scripted steps the engine runs, a person at the terminal,
 * or page steps in headless Chromium (`chromium`: the executable, already resolved against the
 * profile's folder; `stepTimeoutMs`: how long one page step may take).
 */
export type AgentSection =
  | { mode: 'scripted'; actions: Record<string, Step[]> }
  | { mode: 'interactive' }
  | { mode: 'browser'; actions: Record<string, PageStep[]>; chromium?: string; stepTimeoutMs?: number };

/**
 * One suite's external target, as its `suites.<name>` section of a target profile describes it
 * (schemas/target-profile.schema.json, `${env:...}` resolved) and as suite flags such as
 * `--plugin` fill it in. The profile loader builds it, a suite may complete it
 * (`SuiteModule.completeTarget`), and the engine starts the target from it.
 */
export interface TargetSection {
  /** Shown in reports instead of the suite name. */
  description?: string;
  /** The one side of the protocol this target plays (`side:`): the other sides' requirements are not applicable. */
  side?: string;
  /**
   * What a run judges of the suite when the command line selects nothing (`select:`): parts and
   * requirement IDs or globs, as `--part` and `--requirement` take them (src/engine/section-selection.ts).
   */
  select?: { parts?: string[]; requirements?: string[] };
  /** Variables the cases see; `${...}` expressions other than `${env:...}` are left for the engine. */
  vars: Record<string, unknown>;
  /** Values never to print: every `${env:...}` value of the section plus the values of the vars named in `secrets:`. */
  secrets?: string[];
  /** Neutral spec header name (lower-cased) -> the name this target uses. */
  headerNames?: Record<string, string>;
  /** Neutral spec path segment -> the segment this target uses. */
  pathNames?: Record<string, string>;
  /** Neutral field name of the spec -> the name this target uses in the bodies (JSON, form) and queries it sends and reads. */
  fieldNames?: Record<string, string>;
  http?: { timeoutMs?: number; maxBodyBytes?: number; userAgent?: string };
  /** The default executable of `exec:` steps. */
  exec?: ExecConfig;
  /**
   * The database the cases talk to: a URL (`postgres://` for `query:` steps, `mongodb://` for
   * `command:` steps), or a process speaking JSON lines (`exec`, for `command:` steps).
   */
  database?: DatabaseSection;
  /** The request that advances the target's clock; the engine sends it with `${ms}` set. */
  clock?: { advance: HttpRequestSpec };
  agent?: AgentSection;
  /** Where the section starts in the profile (absent when only flags describe the target). */
  location?: SourceLocation;
  /** Where the profile writes `vars:`, `agent:`, `select:` and each var and field (for messages about them). */
  locations?: { vars?: SourceLocation; agent?: SourceLocation; select?: SourceLocation; var: Record<string, SourceLocation>; field?: Record<string, SourceLocation> };
  /**
   * Keys of the profile's section left out because they break its schema (a profile with
   * problems, checked but never run): the checks that read them are skipped, not misled.
   */
  broken?: string[];
}
