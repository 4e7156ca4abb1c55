import { createHash } from 'node:crypto';
import { stableJson } from '../../../src/engine/checks/judged.js';
import type { ExecConfig, ExecResult, ExecRunner } from '../../../src/targets/types.js';
import type { CodeGeneratorRequest } from '../../../reference/plugin/types.js';
import { responseFiles } from '../checks/support.js';
import { createdNames, insertionTargets } from './import-output.js';
import { judgeAnswer, judgeRunnerError, type AnswerOptions, type FuzzFinding } from './judge-run.js';

/**
 * What one plugin run came to, kept small: the answer itself is not held (a plugin may answer
 * megabytes, and a lane remembers every distinct run it made), only what the judges compare.
 */
export interface RunSummary {
  /** Set when the run gave no usable answer: a crash, a non-zero exit, undecodable bytes, a timeout or a cap. */
  failure?: FuzzFinding;
  /** What a usable answer breaks, judged against the request it answered (one per requirement). */
  findings: FuzzFinding[];
  /** The answer set CodeGeneratorResponse.error. */
  errored: boolean;
  /** The exit status and stdout, byte for byte (a digest). */
  bytes: string;
  /** The files written, name to content digest (insertions keyed as `specgate run` keys them). */
  files: Record<string, string>;
  /** The names of the files the answer creates. */
  created: Set<string>;
  /** The files the answer creates and then inserts into itself (never output for an import). */
  targets: Set<string>;
  /** One line for messages: `exit 0 with 2 file(s)`, `error: ...`, `exit 3`, ... */
  outcome: string;
}

/** Thrown when a run was stopped (the lane or the whole search was told to stop): no verdict. */
export class RunStopped extends Error {
  constructor() {
    super('the plugin run was stopped');
  }
}

function digest(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('base64').slice(0, 24);
}

/** A short account of an answer for messages. */
function outcomeOf(result: ExecResult, failure: FuzzFinding | undefined, errored: string | undefined, created: Set<string>): string {
  if (failure) return failure.kind === 'exit' ? `exit ${String(result.exitCode)}` : failure.kind;
  if (errored !== undefined) return `error: ${errored.length > 120 ? `${errored.slice(0, 120)}...` : errored}`;
  const names = [...created].sort();
  return `exit 0 with ${names.length} file(s)${names.length ? `: ${names.slice(0, 6).join(', ')}${names.length > 6 ? ', ...' : ''}` : ''}`;
}

/** Summarises one finished run: judged against `request` by every response rule. */
export function summarize(request: CodeGeneratorRequest, result: ExecResult, judging: AnswerOptions): RunSummary {
  const judged = judgeAnswer(request, result, judging);
  const failure = judged.response ? undefined : judged.findings[0];
  const res = judged.response;
  const error = res?.error !== undefined && res.error !== '' ? res.error : undefined;
  const created = createdNames(res);
  const files: Record<string, string> = {};
  for (const [k, v] of Object.entries(responseFiles(res))) files[k] = digest(v);
  return {
    ...(failure ? { failure } : {}),
    findings: failure ? [] : judged.findings,
    errored: error !== undefined,
    bytes: digest(Buffer.concat([Buffer.from(`${String(result.exitCode)}:${String(result.signal)}:`), result.stdout])),
    files,
    created,
    targets: insertionTargets(res),
    outcome: outcomeOf(result, failure, error, created),
  };
}

/** Whether two answers write the same files with the same contents, and both set error or neither does. */
export function sameAnswer(a: RunSummary, b: RunSummary): boolean {
  return !a.failure && !b.failure && a.errored === b.errored && stableJson(a.files) === stableJson(b.files);
}

/**
 * The plugin runs of one lane, each distinct (bytes, attempt) run made once. Many shrink
 * candidates encode to the same request (the plan-to-descriptor mapping drops what does not
 * apply), and the control request is the same for a whole lane, so the plugin runs once per
 * distinct request: several times fewer processes, and one verdict per request. `attempt` 2 is
 * the same bytes run again, to judge determinism.
 */
export class PluginRuns {
  private readonly memo = new Map<string, Promise<RunSummary>>();
  /** Plugin processes started. */
  started = 0;

  constructor(
    private readonly exec: ExecConfig,
    private readonly runner: ExecRunner,
    private readonly signal: AbortSignal,
    private readonly judging: AnswerOptions,
  ) {}

  /**
   * Runs the plugin on `bytes` (an encoding of `request`). A timeout or an oversized answer is
   * the plugin's failure; any other runner error (the executable cannot be started) is a harness
   * fault and is thrown; a stopped run throws {@link RunStopped} and is not remembered.
   */
  run(bytes: Uint8Array, request: CodeGeneratorRequest, attempt = 1): Promise<RunSummary> {
    const key = `${attempt}:${digest(bytes)}`;
    const known = this.memo.get(key);
    if (known) return known;
    const made = this.runOnce(bytes, request);
    this.memo.set(key, made);
    made.catch(() => this.memo.delete(key));
    return made;
  }

  private async runOnce(bytes: Uint8Array, request: CodeGeneratorRequest): Promise<RunSummary> {
    if (this.signal.aborted) throw new RunStopped();
    this.started++;
    let result: ExecResult;
    try {
      result = await this.runner.run({ ...this.exec, stdin: bytes, signal: this.signal });
    } catch (e) {
      if (this.signal.aborted) throw new RunStopped();
      const failure = judgeRunnerError(e);
      return { failure, findings: [], errored: false, bytes: `failed:${failure.kind}`, files: {}, created: new Set(), targets: new Set(), outcome: failure.kind };
    }
    return summarize(request, result, this.judging);
  }
}
