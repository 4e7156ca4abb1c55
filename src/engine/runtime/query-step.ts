import { match, type Mismatch } from '../../checks/matchers.js';
import { SpecgateError } from '../../errors.js';
import { DatabaseAnswerError } from '../../targets/database/database-errors.js';
import type { QueryResult } from '../../targets/database/types.js';
import type { Exchange, QueryExpect, QuerySpec, QueryStep } from '../model.js';
import type { StepScope } from './step-scope.js';
import { bodyPreview, capture, type Observation } from './observation.js';
import { eachTally, settleExpectation } from './evidence.js';

/** Rows kept in a report's exchange: enough to see what came back, bounded for large answers. */
const REPORT_ROWS = 20;

/** What a query answered, in the shape `expect:` and `capture:` read (`$.rows[0].name`, `$.error.code`). */
interface QueryAnswer {
  rows: Record<string, unknown>[] | undefined;
  rowCount: number | undefined;
  fields: string[] | undefined;
  error: { code: string | undefined; message: string } | undefined;
}

/**
 * Runs a `query:` step: one statement on the target's database, its answer (rows, or the
 * database's refusal) matched against `expect:` and read by `capture:`. A refusal the step does
 * not expect fails it; a database that cannot be reached errors the case (SG_TARGET_UNREACHABLE).
 */
export async function runQueryStep(run: StepScope, step: QueryStep, vars: Record<string, unknown>): Promise<void> {
  const db = run.target.database;
  if (!db)
    throw new SpecgateError('SG_CONFIG', `case ${run.caseId} runs a query, but the target has no database: add \`database: { url: "postgres://user:password@host:port/name" }\` to the suite's section of the target profile`);
  const spec = run.resolve(step.query, vars) as QuerySpec;
  const expect = step.expect ? (run.resolve(step.expect, vars) as QueryExpect) : undefined;
  const params = spec.params ?? [];
  const started = performance.now();
  const answer = await ask(spec, run.signal, (signal) => db.query(spec.sql, params, signal));
  const durationMs = performance.now() - started;
  const exchange = (): Exchange => ({
    kind: 'query',
    summary: `${db.description}: ${oneLine(spec.sql, (t) => run.redact(t))} -> ${answer.error ? `error ${answer.error.code ?? ''}`.trim() : `${answer.rowCount ?? 0} row(s)`}`,
    request: { sql: spec.sql, params },
    response: answer.error ? { error: answer.error } : { rowCount: answer.rowCount, fields: answer.fields, rows: answer.rows?.slice(0, REPORT_ROWS) },
    durationMs,
  });
  run.note(exchange);
  const obs: Observation = { data: answer, body: answer, exchange };
  const { requirement, ...wanted } = expect ?? {};
  const mismatches: Mismatch[] = [];
  const tally = eachTally();
  const ctx = { schema: (name: string, v: unknown) => run.registry.checkSchema(name, v), each: tally };
  for (const key of ['rows', 'rowCount', 'fields', 'error'] as const) if (key in wanted) mismatches.push(...match(answer[key], wanted[key], ctx, key));
  if (answer.error && !('error' in wanted))
    mismatches.push({ path: 'error', message: `the database rejected the statement${answer.error.code ? ` (${answer.error.code})` : ''}: ${answer.error.message}`, expected: '(no error)', actual: answer.error });
  // a step without `expect:` acts (sets up, cleans up) and judges nothing but that it went through
  settleExpectation(run, step, mismatches, expect ?? {}, obs, tally, expect !== undefined);
  if (step.capture) capture(obs, step.capture, vars, (name) => name);
}

/** Runs the statement under the step's own timeout (if any) and the case's signal; a refusal becomes part of the answer. */
async function ask(spec: QuerySpec, outer: AbortSignal, query: (signal: AbortSignal) => Promise<QueryResult>): Promise<QueryAnswer> {
  const ac = new AbortController();
  const onOuter = (): void => ac.abort(outer.reason);
  outer.addEventListener('abort', onOuter, { once: true });
  const timer = spec.timeoutMs
    ? setTimeout(() => ac.abort(new SpecgateError('SG_TARGET_TIMEOUT', `the database did not answer within the step's timeoutMs (${spec.timeoutMs} ms); raise it if the statement is meant to take longer`)), spec.timeoutMs)
    : undefined;
  try {
    const res = await query(ac.signal);
    return { rows: res.rows, rowCount: res.rowCount, fields: res.fields, error: undefined };
  } catch (e) {
    if (e instanceof DatabaseAnswerError) return { rows: undefined, rowCount: undefined, fields: undefined, error: e.toObservation() };
    throw e;
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onOuter);
  }
}

/** The statement on one line, cut to 80 characters (a secret in it masked before the cut). */
function oneLine(sql: string, redact: (text: string) => string): string {
  return bodyPreview(sql.replace(/\s+/g, ' ').trim(), redact, 80) ?? '';
}
