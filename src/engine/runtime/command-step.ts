import { match, type Mismatch } from '../../checks/matchers.js';
import { SpecgateError } from '../../errors.js';
import { DatabaseAnswerError, type DatabaseRefusal } from '../../targets/database/database-errors.js';
import type { DocumentDatabaseTarget } from '../../targets/database/types.js';
import { redactedPreview } from '../../targets/text-cut.js';
import type { CommandExpect, CommandStep, Exchange } from '../model.js';
import type { StepScope } from './step-scope.js';
import { capture, type Observation } from './observation.js';
import { eachTally, settleExpectation } from './evidence.js';

/** Documents kept of any list in a report's exchange (a batch, inserted documents): enough to see, bounded for large ones. */
export const REPORT_DOCUMENTS = 20;
/** Characters kept of any one string in a report's exchange. */
const REPORT_STRING_CHARS = 2000;
/** Nesting kept in a report's exchange; deeper values are summarised. */
const REPORT_DEPTH = 12;

/** What a command answered, in the shape `expect:` and `capture:` read (`$.reply.cursor.firstBatch[0].name`, `$.error.code`). */
interface CommandAnswer {
  reply: Record<string, unknown> | undefined;
  error: DatabaseRefusal | undefined;
}

/**
 * Runs a `command:` step: one command document on the target's document database, its answer
 * (the reply, or the database's refusal) matched against `expect:` and read by `capture:`. A
 * refusal the step does not expect fails it; a database that cannot be reached errors the case
 * (SG_TARGET_UNREACHABLE).
 */
export async function runCommandStep(run: StepScope, step: CommandStep, vars: Record<string, unknown>): Promise<void> {
  const db = run.target.documents;
  if (!db) {
    const why = run.target.database ? 'the target has a SQL database (use `query:` steps for it), not a document database' : 'the target has no document database';
    throw new SpecgateError('SG_CONFIG', `case ${run.caseId} runs a command, but ${why}: give the suite's section of the target profile \`database: { url: "mongodb://host:port/name" }\` or \`database: { exec: "<command line of a process speaking JSON lines>" }\``);
  }
  const doc = run.resolve(step.command, vars);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || Object.keys(doc).length === 0)
    throw new SpecgateError('SG_SUITE_SCHEMA', `case ${run.caseId}: command is ${Array.isArray(doc) ? 'a list' : JSON.stringify(doc)}, not a command document; write it as a mapping whose first key names the operation, e.g. \`command: { find: names, filter: {} }\``);
  const command = doc as Record<string, unknown>;
  const expect = step.expect ? (run.resolve(step.expect, vars) as CommandExpect) : undefined;
  const started = performance.now();
  const answer = await ask(step.timeoutMs, run.signal, (signal) => db.command(command, signal));
  const exchange = commandExchange(db.description, command, answer, performance.now() - started, (t) => run.redact(t));
  run.note(exchange);
  const obs: Observation = { data: answer, body: answer, exchange, label: `${db.description}: ${commandName(command)}` };
  const { requirement, ...wanted } = expect ?? {};
  const mismatches: Mismatch[] = [];
  const tally = eachTally();
  const ctx = { schema: (name: string, v: unknown) => run.registry.checkSchema(name, v), each: tally };
  for (const key of ['reply', 'error'] as const) {
    if (!(key in wanted)) continue;
    // a refusal was expected and the command went through: say so, not "expected an object"
    if (key === 'error' && answer.error === undefined && wanted.error !== undefined && !isAbsentMatcher(wanted.error))
      mismatches.push({ path: 'error', message: 'expected the database to refuse the command; it answered ok', expected: wanted.error, actual: answer.reply === undefined ? '(no reply)' : bounded(answer.reply, (t) => run.redact(t)) });
    else mismatches.push(...match(answer[key], wanted[key], ctx, key));
  }
  if (answer.error && !('error' in wanted))
    mismatches.push({ path: 'error', message: `the database refused the command${refusalCode(answer.error)}: ${answer.error.message}`, expected: '(no error)', actual: answer.error });
  // a step without `expect:` acts (sets up, cleans up) and judges nothing but that it went through
  settleExpectation(run, step, mismatches, expect ?? {}, obs, tally, expect !== undefined);
  if (step.capture) capture(obs, step.capture, vars, (name) => name);
}

/**
 * The target's document database as a typed check sees it (`ctx.documents`): every command is
 * recorded like a `command:` step's and heard as an answer of the target, and is abandoned when
 * the case ends. `close` does nothing: the session belongs to the target, not to one check.
 */
export function recordedDocuments(run: StepScope, port: DocumentDatabaseTarget): DocumentDatabaseTarget {
  return {
    description: port.description,
    async command(doc, signal) {
      const both = signal ? AbortSignal.any([run.signal, signal]) : run.signal;
      const started = performance.now();
      try {
        const reply = refusalChecked(await port.command(doc, both));
        run.note(commandExchange(port.description, doc, { reply, error: undefined }, performance.now() - started, (t) => run.redact(t)));
        run.heard(`${port.description}: ${commandName(doc)}`, reply);
        return reply;
      } catch (e) {
        if (e instanceof DatabaseAnswerError)
          run.note(commandExchange(port.description, doc, { reply: undefined, error: e.toObservation() }, performance.now() - started, (t) => run.redact(t)));
        throw e;
      }
    },
    close: async () => {},
  };
}

/** The recorded exchange of one command: summary `<database>: <name> <collection> -> ok | error <codeName>`, lists cut for the report. */
function commandExchange(description: string, doc: Record<string, unknown>, answer: CommandAnswer, durationMs: number, redact: (text: string) => string): () => Exchange {
  return () => ({
    kind: 'command',
    summary: `${description}: ${redactedPreview(commandName(doc), 80, redact)} -> ${answer.error ? `error${answer.error.code ? ` ${answer.error.code}` : ''}` : replyOutcome(answer.reply)}`,
    request: bounded(doc, redact),
    response: answer.error ? { error: answer.error } : bounded(answer.reply, redact),
    durationMs,
  });
}

/** The command's operation and the collection it names (`find names`); the operation alone when its value is no name. */
function commandName(doc: Record<string, unknown>): string {
  const first = Object.entries(doc)[0];
  if (!first) return '(empty command)';
  const [name, value] = first;
  return typeof value === 'string' ? `${name} ${value}` : name;
}

function replyOutcome(reply: Record<string, unknown> | undefined): string {
  const ok = reply?.['ok'];
  return ok === undefined || ok === 1 || ok === true ? 'ok' : `ok: ${JSON.stringify(ok)}`;
}

function refusalCode(error: DatabaseRefusal): string {
  const parts = [error.code, error.number].filter((x) => x !== undefined);
  return parts.length ? ` (${parts.join(' ')})` : '';
}

/**
 * A value as a report keeps it: lists cut to {@link REPORT_DOCUMENTS} entries (then a note of
 * how many more), strings masked and cut, nesting bounded. Never changes what cases match.
 */
export function bounded(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return redactedPreview(value, REPORT_STRING_CHARS, redact);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (depth >= REPORT_DEPTH) return Array.isArray(value) ? `[list of ${value.length}]` : '{…}';
  if (Array.isArray(value)) {
    const kept = value.slice(0, REPORT_DOCUMENTS).map((v) => bounded(v, redact, depth + 1));
    return value.length > REPORT_DOCUMENTS ? [...kept, `… ${value.length - REPORT_DOCUMENTS} more not shown`] : kept;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '__proto__') continue;
    out[k] = bounded(v, redact, depth + 1);
  }
  return out;
}

/** Runs the command under the step's own timeout (if any) and the case's signal; a refusal becomes part of the answer. */
async function ask(timeoutMs: number | undefined, outer: AbortSignal, send: (signal: AbortSignal) => Promise<Record<string, unknown>>): Promise<CommandAnswer> {
  const ac = new AbortController();
  const onOuter = (): void => ac.abort(outer.reason);
  outer.addEventListener('abort', onOuter, { once: true });
  const timer = timeoutMs
    ? setTimeout(() => ac.abort(new SpecgateError('SG_TARGET_TIMEOUT', `the database did not answer within the step's timeoutMs (${timeoutMs} ms); raise it if the command is meant to take longer`)), timeoutMs)
    : undefined;
  try {
    return { reply: refusalChecked(await send(ac.signal)), error: undefined };
  } catch (e) {
    if (e instanceof DatabaseAnswerError) return { reply: undefined, error: e.toObservation() };
    throw e;
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onOuter);
  }
}

/**
 * The port's contract makes a refusal an error; an embedded store may simply answer `ok: 0`, as
 * the database would: that is a refusal too, whoever carried it.
 */
function refusalChecked(reply: Record<string, unknown>): Record<string, unknown> {
  if (reply['ok'] === 0 || reply['ok'] === false) throw DatabaseAnswerError.refusedCommand(reply);
  return reply;
}

/** `{ $absent: true }`: the step expects no refusal. */
function isAbsentMatcher(m: unknown): boolean {
  return typeof m === 'object' && m !== null && (m as Record<string, unknown>).$absent === true;
}
