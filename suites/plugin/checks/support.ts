import { createHash } from 'node:crypto';
import { sharedObservation, stableJson } from '../../../src/engine/checks/judged.js';
import type { Exchange } from '../../../src/engine/model.js';
import type { CheckContext, CheckExec, CheckExecResult, FailureInput } from '../../../src/engine/suite-module.js';
import { isSpecgateError, SpecgateError } from '../../../src/errors.js';
import { commandArgv } from '../../../src/targets/command-line.js';
import type { ExecResult } from '../../../src/targets/types.js';
import { decodeResponse } from '../../../reference/plugin/codec.js';
import { unknownResponseTags } from './response-tags.js';
import { responseWithin, type StrayOutput } from './stray-output.js';
import { DEFAULT_MARKER_PREFIX, DEFAULT_METADATA_SUFFIX } from '../../../reference/plugin/model/index.js';
import type { CodeGeneratorRequest, CodeGeneratorResponse } from '../../../reference/plugin/types.js';
import { FIXTURES, type FixtureName } from './fixtures.js';
import { cutText } from '../../../src/targets/text-cut.js';

/** Helpers shared by the plugin suite's typed checks. */

/**
 * How to run the plugin under test through `ctx.exec`: the target's executable when it has one
 * (`--plugin`, a profile's `exec:`), else var plugin_command, turned into arguments by the one
 * command-line rule (src/targets/command-line.ts).
 */
export function pluginCommand(ctx: CheckContext): Pick<CheckExec, 'command'> {
  if (ctx.execConfig) return {};
  const v = ctx.vars['plugin_command'];
  if (v === undefined || v === '') throw new SpecgateError('SG_CONFIG', 'no plugin to run: give --plugin <executable> or set vars.plugin_command');
  return { command: commandArgv(v, 'plugin command') };
}

/** The compiler under test (var compiler_command), by the one command-line rule. */
export function compilerArgv(ctx: CheckContext): string[] {
  const v = ctx.vars['compiler_command'];
  if (v === undefined || v === '') throw new SpecgateError('SG_CONFIG', 'no compiler to run: give --compiler <executable> or set vars.compiler_command');
  return commandArgv(v, 'compiler command');
}

/** Variables set in the environment of the compiler under test (var compiler_env: names to values), over specgate's own. */
export function compilerEnv(ctx: Pick<CheckContext, 'vars'>): Record<string, string> {
  const v = ctx.vars['compiler_env'];
  if (v === undefined || v === '') return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v) || Object.values(v).some((x) => typeof x !== 'string')) {
    throw new SpecgateError('SG_CONFIG', 'vars.compiler_env must map variable names to string values');
  }
  return { ...(v as Record<string, string>) };
}

/** `@@<compiler>_insertion_point` (var insertion_marker_prefix), for checks and generators alike. */
export function markerPrefix(ctx: Pick<CheckContext, 'vars'>): string {
  const v = ctx.vars['insertion_marker_prefix'];
  return typeof v === 'string' && v !== '' ? v : DEFAULT_MARKER_PREFIX;
}

/** `<file><suffix>`, where a compiler keeps a generated file's code-generation metadata (var metadata_file_suffix). */
export function metadataSuffix(ctx: Pick<CheckContext, 'vars'>): string {
  const v = ctx.vars['metadata_file_suffix'];
  return typeof v === 'string' && v !== '' ? v : DEFAULT_METADATA_SUFFIX;
}

/** `<compiler>-gen-` (var plugin_name_prefix). */
export function pluginNamePrefix(ctx: CheckContext): string {
  const v = ctx.vars['plugin_name_prefix'];
  return typeof v === 'string' && v !== '' ? v : 'protoc-gen-';
}

/** The fixtures a plugin is run on (var plugin_fixtures: list or comma-separated; default all). */
export function pluginFixtures(ctx: CheckContext): FixtureName[] {
  const v = ctx.vars['plugin_fixtures'];
  const names = Array.isArray(v) ? v.map(String) : typeof v === 'string' && v !== '' ? v.split(',').map((s) => s.trim()) : Object.keys(FIXTURES);
  for (const n of names) {
    if (!Object.hasOwn(FIXTURES, n)) throw new SpecgateError('SG_CONFIG', `vars.plugin_fixtures names "${n}"; known fixtures: ${Object.keys(FIXTURES).join(', ')}`);
  }
  return names as FixtureName[];
}

/** Whether this case answers for `requirement` (checks report only their case's requirements). */
export function wants(ctx: CheckContext, requirement: string): boolean {
  return ctx.requirements.includes(requirement);
}

/** Records a failure when the case covers the requirement. */
export function failFor(ctx: CheckContext, f: FailureInput & { requirement: string }): void {
  if (wants(ctx, f.requirement)) ctx.fail(f);
}

/** One plugin run and what came of it. */
export interface PluginRun {
  result: ExecResult;
  response?: CodeGeneratorResponse;
  /** Why stdout is not a CodeGeneratorResponse (only when the exit status was 0 and no response was found in it). */
  decodeError?: string;
  /**
   * Output around the response: stdout did not decode as a whole, but it holds a response with
   * lines of text before it or bytes after it. `response` is then the response found.
   */
  strayOutput?: StrayOutput;
  /** Fields of the answer under tags the schema does not define (see response-tags.ts). */
  unknownTags?: string[];
  /** Set when the plugin gave no answer in time: it was stopped, and `result` is empty. */
  noAnswer?: string;
  exchange: Exchange;
}

function describeRequest(req: CodeGeneratorRequest | undefined, label: string, bytes: number): unknown {
  if (!req) return { label, bytes };
  return {
    label,
    bytes,
    file_to_generate: req.file_to_generate,
    parameter: req.parameter,
    proto_file: (req.proto_file ?? []).map((f) => f.name),
    compiler_version: req.compiler_version,
  };
}

/** Files a response description lists; the rest are counted. */
export const LISTED_FILES = 20;

/**
 * A response for reports: names and sizes, not whole file contents, and only the first
 * {@link LISTED_FILES} files (a response may list thousands; `files_not_shown` counts the rest).
 */
export function describeResponse(res: CodeGeneratorResponse | undefined): unknown {
  if (!res) return undefined;
  const files = res.file ?? [];
  return {
    error: res.error,
    supported_features: res.supported_features,
    file: files.slice(0, LISTED_FILES).map((f) => ({ name: f.name, insertion_point: f.insertion_point, content: f.content === undefined ? undefined : `${f.content.length} chars` })),
    ...(files.length > LISTED_FILES ? { files_not_shown: files.length - LISTED_FILES } : {}),
  };
}

type Described = { request: unknown; response: unknown };

/**
 * A `describe` that builds its description on the first call and then drops the function that
 * built it. The engine keeps the last exchanges of a case for its report; were the builder kept,
 * so would be everything it closes over, the whole decoded answer included (a plugin answering
 * 60 MB, run on five fixtures, held five answers at once).
 */
function describedOnce(build: (r: ExecResult) => Described): (r: ExecResult) => Described {
  let make: ((r: ExecResult) => Described) | undefined = build;
  let made: Described = { request: undefined, response: undefined };
  return (r) => {
    if (make) {
      made = make(r);
      make = undefined;
    }
    return made;
  };
}

/**
 * Runs the plugin on `stdin` through the engine (`ctx.exec`: recorded, capped, timed out, its
 * process group stopped) and decodes its answer when it exits 0. The run's exchange, described
 * with the request and the decoded answer, goes with any failure found in it.
 *
 * A plugin that does not answer within the exec deadline (the target's exec timeout, shorter
 * than the case's) is stopped and the run comes back with `noAnswer` set, so the check judges
 * the silence against the one-request, one-response rule with the request that caused it,
 * instead of the case ending as timed out.
 */
export async function runPlugin(ctx: CheckContext, stdin: Uint8Array, label: string, req?: CodeGeneratorRequest): Promise<PluginRun> {
  let response: CodeGeneratorResponse | undefined;
  let decodeError: string | undefined;
  let unknownTags: string[] | undefined;
  let strayOutput: StrayOutput | undefined;
  const decode = (result: ExecResult): void => {
    if (result.exitCode !== 0 || response || decodeError !== undefined) return;
    try {
      response = decodeResponse(result.stdout);
      const tags = unknownResponseTags(result.stdout);
      if (tags.length) unknownTags = tags;
    } catch (e) {
      const found = responseWithin(result.stdout);
      if (found) {
        response = found.response;
        strayOutput = found.stray;
        const tags = unknownResponseTags(found.bytes);
        if (tags.length) unknownTags = tags;
      } else decodeError = e instanceof Error ? e.message : String(e);
    }
  };
  let ran: CheckExecResult;
  try {
    // the recorded exchange carries the request described and the decoded answer
    ran = await ctx.exec({
      ...pluginCommand(ctx),
      stdin,
      label,
      describe: describedOnce((r) => {
        decode(r);
        return {
          request: describeRequest(req, label, stdin.length),
          response: { exitCode: r.exitCode, signal: r.signal, stderr: r.stderr, stdoutBytes: r.stdout.length, decoded: describeResponse(response), decodeError, strayOutput, unknownTags },
        };
      }),
    });
  } catch (e) {
    if (!isSpecgateError(e) || e.code !== 'SG_TARGET_TIMEOUT' || ctx.signal.aborted) throw e;
    return silentRun(ctx, e, stdin, label, req);
  }
  const { exchange, ...result } = ran;
  decode(result);
  const run: PluginRun = { result, exchange };
  if (response) run.response = response;
  if (decodeError !== undefined) run.decodeError = decodeError;
  if (strayOutput) run.strayOutput = strayOutput;
  if (unknownTags) run.unknownTags = unknownTags;
  return run;
}

/**
 * Answers larger than this are not kept for other cases to share (see {@link sharedPluginRun}):
 * the cases that ask later run the plugin again instead of the run holding the answer to its end.
 */
export const SHARED_ANSWER_BYTES = 1024 * 1024;

/**
 * The plugin's `round`-th run on exactly these request bytes, shared by every case of the suite
 * run that sends them: the first case to ask runs the plugin, the others wait for that run, see
 * its exchange and judge its answer themselves (the engine's sharedObservation: a run whose case
 * was stopped is not handed on). Several cases send the same request (a stored fixture as a
 * compiler builds it is the baseline of three behaviour checks and an answer the rule cases
 * judge), and the plugin is a process start each time. Rounds are runs of their own, for what
 * compares runs (PLUGIN-DETERMINISTIC, a baseline's stability): round 2 is a second process on
 * the same bytes, never the first one's answer again. An answer above {@link SHARED_ANSWER_BYTES}
 * is handed to the cases already waiting and then dropped. The key names the plugin as the target
 * or var plugin_command gives it. Each case sees the run under its own `label` (relabeled).
 */
export async function sharedPluginRun(ctx: CheckContext, stdin: Uint8Array, label: string, req?: CodeGeneratorRequest, round = 1): Promise<PluginRun> {
  const plugin = ctx.execConfig ?? { command: ctx.vars['plugin_command'] ?? null };
  const digest = createHash('sha256').update(stdin).digest('hex');
  const key = `plugin run\u0000${stableJson({ plugin, request: digest, round })}`;
  const shown = round > 1 ? `${label}, run ${round}` : label;
  // the run is described with the label of the case that started it: a case that waited for it
  // sees it under its own, in the exchanges handed on and in the one its failures name
  const own: CheckContext = { ...ctx, exchange: (ex) => ctx.exchange(relabeled(ex, shown)) };
  const pending = sharedObservation(own, key, (c) => runPlugin(c, stdin, shown, req));
  // the entry this run is: registered by the call above when it started the run, else the one it waits for
  const mine = ctx.observations.get(key);
  const run = await pending;
  // an answer too large to keep is dropped, but only this run's entry: another under the same key
  // (this one having failed or been dropped meanwhile) is a run of its own, maybe still under way
  if (run.result.stdout.length > SHARED_ANSWER_BYTES && mine !== undefined && ctx.observations.get(key) === mine) ctx.observations.delete(key);
  const exchange = relabeled(run.exchange, shown);
  return exchange === run.exchange ? run : { ...run, exchange };
}

/** A plugin run's exchange as the case asking for it names its request (`label`): the same exchange when it already does. */
export function relabeled(ex: Exchange, label: string): Exchange {
  const request = ex.request as { label?: unknown } | undefined;
  const was = request && typeof request === 'object' && typeof request.label === 'string' ? request.label : undefined;
  if (was === undefined || was === label) return ex;
  const summary = ex.summary.startsWith(`${was}: `) ? `${label}: ${ex.summary.slice(was.length + 2)}` : ex.summary;
  return { ...ex, summary, request: { ...request, label } };
}

/** A run the plugin never answered: the engine stopped it at its deadline. Recorded like any run. */
function silentRun(ctx: CheckContext, e: SpecgateError, stdin: Uint8Array, label: string, req: CodeGeneratorRequest | undefined): PluginRun {
  const stderr = typeof e.detail?.['stderr'] === 'string' ? e.detail['stderr'] : '';
  const deadline = typeof e.detail?.['timeoutMs'] === 'number' ? e.detail['timeoutMs'] : undefined;
  const noAnswer = `the plugin gave no answer to ${label} within ${deadline === undefined ? 'its deadline' : `${deadline} ms`} and was stopped`;
  const exchange: Exchange = {
    kind: 'exec',
    summary: `${label}: no answer (stopped after ${deadline ?? '?'} ms)`,
    request: describeRequest(req, label, stdin.length),
    response: { noAnswer, stderr: cutText(stderr, 2000) },
    durationMs: deadline ?? 0,
  };
  ctx.exchange(exchange);
  return { result: { exitCode: null, signal: null, stdout: new Uint8Array(0), stderr, durationMs: deadline ?? 0 }, noAnswer, exchange };
}

/** Files of a response as name -> content (insertions keyed `name@point#i`), for comparisons. */
export function responseFiles(res: CodeGeneratorResponse | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  (res?.file ?? []).forEach((f, i) => {
    const key = f.insertion_point ? `${f.name ?? ''}@${f.insertion_point}#${i}` : f.name ? f.name : `(chunk #${i})`;
    out[key] = f.content ?? '';
  });
  return out;
}

/** Whether a run ended with a usable response: exit 0, parseable, no error. */
export function succeeded(run: PluginRun): run is PluginRun & { response: CodeGeneratorResponse } {
  return run.result.exitCode === 0 && run.response !== undefined && !run.response.error;
}

/** A one-line account of a run for failure messages. */
export function outcomeText(run: PluginRun): string {
  if (run.noAnswer !== undefined) return run.noAnswer;
  if (run.result.exitCode !== 0) return `exit ${run.result.exitCode ?? run.result.signal}${run.result.stderr ? `, stderr: ${cutText(run.result.stderr.trim(), 300)}` : ''}`;
  if (run.decodeError) return `exit 0 but stdout is not a CodeGeneratorResponse (${run.decodeError})`;
  if (run.response?.error) return `error: ${run.response.error}`;
  return `exit 0 with ${run.response?.file?.length ?? 0} file(s)`;
}
