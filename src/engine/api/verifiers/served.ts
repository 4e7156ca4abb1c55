import { defineCheck } from '../../checks/contract.js';
import type { CheckResponse } from '../../suite-module.js';
import { tableSchemaFindings } from '../schema-validate.js';
import { isListedStatus, isSuccess, resourceOf, responseSchema, successLabel, type ApiOperation, type ApiTable } from '../table.js';
import { OPERATION_ARGS, bodyFor, send, withOperation, type OperationArgs, type OperationScope } from './common.js';
import { cutText } from '../../../targets/text-cut.js';

/**
 * `api.served`: the operation, sent as the table describes it, answers with a success status
 * the table lists for it and a body that satisfies that status's schema.
 */
export const served = defineCheck<OperationArgs>({
  description: 'the operation answers its request with a listed 2xx status and a body matching that status schema',
  args: OPERATION_ARGS,
  judges: 'case',
  run: (ctx, args) =>
    withOperation(ctx, args, async ({ table, op, fail, params }) => {
      const res = await send(ctx, op, params, { json: bodyFor(table, op, ctx.seed, args.json), ...(args.query ? { query: args.query } : {}) });
      if (!isSuccess(op, res.status)) {
        fail(`${op.id} (${op.method} ${op.path}) answered ${res.status}; the table lists ${successLabel(op)} for success`, { expected: successLabel(op), actual: res.status, exchange: res.exchange });
        return;
      }
      judgeBody(table, op, res, fail);
    }),
});

/**
 * `api.schema`: every answer of the operation is a status the table lists, with a body matching
 * that status's schema: the answer to a good request, to a request for an item that does not
 * exist (operations on one item), and to a body that breaks the request schema.
 */
export const schema = defineCheck<OperationArgs>({
  description: 'answers to good, missing-item and malformed requests use listed statuses with bodies matching their schemas',
  args: OPERATION_ARGS,
  judges: 'case',
  run: (ctx, args) =>
    withOperation(ctx, args, async ({ table, op, fail, params }) => {
      const body = bodyFor(table, op, ctx.seed, args.json);
      const good = await send(ctx, op, params, { json: body, ...(args.query ? { query: args.query } : {}) });
      if (listed(op, good, 'a good request', fail)) judgeBody(table, op, good, fail);
      const owner = resourceOf(table, op.id);
      if (owner && owner.role !== 'create' && owner.role !== 'list') {
        const missing = await send(ctx, op, { ...params, [owner.resource.param]: owner.resource.missingId }, { json: body });
        if (missing.status < 400 || missing.status >= 500) fail(`${op.id} for a ${owner.resource.name} that does not exist answered ${missing.status}; expected a 4xx`, { actual: missing.status, exchange: missing.exchange });
        else if (listed(op, missing, 'a request for a missing item', fail)) judgeBody(table, op, missing, fail);
      }
      if (op.request && isObjectSchema(table.schemas[op.request])) {
        const bad = await send(ctx, op, params, { json: ['not', 'an', 'object'] });
        if (bad.status < 400 || bad.status >= 500) fail(`${op.id} accepted a body that breaks its request schema (answered ${bad.status}); expected a 4xx`, { actual: bad.status, exchange: bad.exchange });
        else if (listed(op, bad, 'a malformed body', fail)) judgeBody(table, op, bad, fail);
      }
    }),
});

function listed(op: ApiOperation, res: CheckResponse, what: string, fail: OperationScope['fail']): boolean {
  if (isListedStatus(op, res.status)) return true;
  fail(`${op.id} answered ${what} with ${res.status}, a status the table does not list (${Object.keys(op.responses).join(', ')})`, { expected: Object.keys(op.responses), actual: res.status, exchange: res.exchange });
  return false;
}

/** The body against the schema the table names for its status. */
export function judgeBody(table: ApiTable, op: ApiOperation, res: CheckResponse, fail: OperationScope['fail']): void {
  const name = responseSchema(op, res.status);
  if (!name) return;
  if (res.parseError !== undefined || res.body === undefined) {
    fail(`${op.id} answered ${res.status} with a body that is not JSON; the table says it is ${name}`, { actual: cutText(res.bodyText, 300), exchange: res.exchange });
    return;
  }
  const { problems, raw } = tableSchemaFindings(table, name, res.body);
  // the sentences lead: they say what to fix; which answer and which schema follow
  if (problems.length)
    fail(`${firstProblems(problems, LISTED_PROBLEMS)} (${op.id} answered ${res.status} with a body that breaks schema ${name})`, { expected: name, actual: res.body, detail: { schema: name, errors: raw }, exchange: res.exchange });
}

function isObjectSchema(s: unknown): boolean {
  return Boolean(s && typeof s === 'object' && (s as { type?: unknown }).type === 'object');
}

/** Sentences of one schema failure a message lists; the rest are counted. */
const LISTED_PROBLEMS = 5;

/** The first `n` sentences, and how many more there are. */
function firstProblems(problems: readonly string[], n: number): string {
  return `${problems.slice(0, n).join('; ')}${problems.length > n ? `; and ${problems.length - n} more` : ''}`;
}
