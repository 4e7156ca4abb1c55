import { SpecgateError } from '../../../errors.js';
import { defineCheck } from '../../checks/contract.js';
import { schemaProblems } from '../schema-validate.js';
import { isSuccess, successLabel } from '../table.js';
import { apiOf, batchBody, failer, operationOf, pageItems, send, type OperationArgs } from './common.js';
import { cutText } from '../../../targets/text-cut.js';

const BATCH_ARGS = {
  type: 'object',
  additionalProperties: false,
  required: ['operation'],
  properties: { operation: { type: 'string' }, requirement: { type: 'string' }, params: { type: 'object' } },
} as const;

/**
 * `api.batch`: a batch of items gets one result per item, in order, each matching the result
 * schema; a batch above the table's maximum (when it gives one) is refused with its `overMaxStatus`.
 */
export const batch = defineCheck<Pick<OperationArgs, 'operation' | 'requirement' | 'params'>>({
  description: 'a batch answers one result per item in order, and one above the maximum size is refused',
  args: BATCH_ARGS,
  judges: 'case',
  async run(ctx, args) {
    const { table } = apiOf(ctx);
    const op = operationOf(table, args.operation);
    const b = op.batch;
    if (!b) throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: ${op.id} has no batch: in ${table.file}`);
    const fail = failer(ctx, args);
    const params = args.params ?? {};
    const n = Math.min(3, b.max ?? 3);
    const res = await send(ctx, op, params, { json: batchBody(table, op, ctx.seed, n) });
    if (!isSuccess(op, res.status)) fail(`${op.id} with ${n} items answered ${res.status}; expected ${successLabel(op)}`, { actual: res.status, exchange: res.exchange });
    else {
      const results = pageItems(res.body, b.results);
      if (!results) fail(`${op.id} answered no result array at ${b.results}`, { actual: cutText(res.bodyText, 300), exchange: res.exchange });
      else if (results.length !== n) fail(`${op.id} with ${n} items answered ${results.length} results; expected one per item`, { expected: n, actual: results.length, exchange: res.exchange });
      else if (b.result) {
        results.forEach((r, i) => {
          const problems = schemaProblems(table, b.result, r);
          if (problems.length) fail(`${problems.slice(0, 3).join('; ')} (${op.id}: result ${i} breaks schema ${b.result ?? ''})`, { actual: r, exchange: res.exchange });
        });
      }
    }
    if (b.max === undefined) return;
    const over = await send(ctx, op, params, { json: batchBody(table, op, ctx.seed, b.max + 1) });
    if (over.status !== b.overMaxStatus)
      fail(`${op.id} with ${b.max + 1} items (above the maximum ${b.max}) answered ${over.status}; expected ${b.overMaxStatus}`, { expected: b.overMaxStatus, actual: over.status, exchange: over.exchange });
  },
});
