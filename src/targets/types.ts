import type { ClockControl } from '../engine/clock.js';
import type { DatabaseTarget, DocumentDatabaseTarget } from './database/types.js';

/** An HTTP request as the http target sends it (after expressions are resolved). */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Lower-cased header names; repeated headers joined with ", " (set-cookie kept as array). */
  headers: Record<string, string | string[]>;
  bodyBytes: Uint8Array;
  /** UTF-8 text of the body. */
  bodyText: string;
  /**
   * The body parsed by content type: JSON (lossless: integers beyond 2^53 become bigint),
   * form-encoded (object of strings), XML (element tree as object), otherwise undefined.
   */
  body: unknown;
  /** Set when the content type claims JSON or XML but the body does not parse (body is then undefined). */
  parseError?: string;
  durationMs: number;
}

/** Sends HTTP requests; never follows redirects; enforces a timeout and a body cap. */
export interface HttpClient {
  send(req: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

export interface HttpLimits {
  timeoutMs: number;
  maxBodyBytes: number;
}

/** How to start an executable target. */
export interface ExecConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
  maxStdoutBytes?: number;
  maxStderrBytes?: number;
}

export interface ExecRequest extends ExecConfig {
  stdin?: Uint8Array;
  signal?: AbortSignal;
}

export interface ExecResult {
  exitCode: number | null;
  /** Set when the process died of a signal. */
  signal: NodeJS.Signals | null;
  stdout: Uint8Array;
  stderr: string;
  durationMs: number;
}

/** Runs a process with binary stdin/stdout; on timeout kills the whole process group. */
export interface ExecRunner {
  run(req: ExecRequest): Promise<ExecResult>;
}

/** An {@link ExecRunner} holding something until it is closed (the worker thread its invocations run in). */
export interface ClosableExecRunner extends ExecRunner {
  /** Ends what it holds; a later invocation starts it again. */
  close(): Promise<void>;
}

/**
 * Performs user-agent actions (approve, deny, enter a user code, cancel) for a target:
 * scripted HTTP exchanges from the profile, a person at the terminal, or page steps in headless Chromium (mode: browser).
 */
export interface UserAgentDriver {
  readonly kind: string;
  perform(action: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>>;
}

/** Everything a suite's cases run against, whether the embedded reference or a profile's target. */
export interface SuiteTarget {
  kind: 'reference' | 'profile';
  /** Shown in reports (never contains secrets). */
  description: string;
  /** Variables the cases see (`${auth_url}`, `${client_id}`, ...). */
  vars: Record<string, unknown>;
  /** Values never to print (credentials from `${env:...}`). */
  secrets: string[];
  /** Neutral spec header name -> the name this target uses (case-insensitive keys). */
  headerNames: Record<string, string>;
  /** Neutral spec path segment -> the segment this target uses (profile `paths:`). */
  pathNames: Record<string, string>;
  /** Neutral field name of the spec -> the name this target uses in JSON and form bodies and query parameters (profile `fields:`). */
  fieldNames?: Record<string, string>;
  exec?: ExecConfig;
  /** Undefined when time can only pass for real. */
  clock?: ClockControl;
  agent?: UserAgentDriver;
  /** The database `query:` steps talk to (profile `database:` or the reference's own). */
  database?: DatabaseTarget;
  /** The document database `command:` steps talk to (profile `database:` or the reference's own). */
  documents?: DocumentDatabaseTarget;
  stop(): Promise<void>;
}

/** How one invocation is run: when it started (this thread's clock), and who hears of the child's pid. */
export interface ExecRunOptions {
  /** `performance.now()` of the call, when it was made before (in this thread's clock). */
  start?: number;
  /** Told the child's pid once it is started. */
  onStart?: (pid: number) => void;
}
