import { SpecgateError } from '../../../errors.js';
import { defineCheck } from '../../checks/contract.js';
import { stringify } from '../../expressions.js';
import { methodsOnPath } from '../match-exchange.js';
import { OPERATION_ARGS, bodyFor, send, withOperation, type OperationArgs } from './common.js';

/** Methods tried, in order, for a method the path does not list. */
const TRY = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'];

/**
 * `api.wrongMethod`: a method the table lists for no operation on the operation's path is
 * refused with the table's `wrongMethodStatus` (405 unless it says otherwise). The path
 * addresses a real item, so only the method is wrong.
 */
export const wrongMethod = defineCheck<OperationArgs>({
  description: 'a method the table lists for no operation on the path is refused (405 unless the table says otherwise)',
  args: OPERATION_ARGS,
  judges: 'case',
  run: (ctx, args) =>
    withOperation(ctx, args, async ({ table, op, fail, params }) => {
      const path = op.path.replace(/\{([^}]+)\}/g, (_m, n: string) => encodeURIComponent(stringify(params[n])));
      const allowed = methodsOnPath(table, path);
      const method = TRY.find((m) => !allowed.includes(m));
      if (!method) throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: every method is an operation on ${op.path}; api.wrongMethod has none left to try`);
      const res = await send(ctx, op, params, { method, json: bodyFor(table, op, ctx.seed, args.json) });
      if (res.status !== table.wrongMethodStatus)
        fail(`${method} ${op.path} (the table lists ${allowed.join(', ')}) answered ${res.status}; expected ${table.wrongMethodStatus}`, { expected: table.wrongMethodStatus, actual: res.status, exchange: res.exchange });
    }),
});

/**
 * `api.authRequired`: the operation refuses a request without credentials, and one with a
 * credential the target never issued, with the table's `auth.status` (401 unless it says
 * otherwise).
 */
export const authRequired = defineCheck<OperationArgs>({
  description: 'the operation refuses requests without credentials or with a made-up one (401 unless the table says otherwise)',
  args: OPERATION_ARGS,
  judges: 'case',
  run: (ctx, args) =>
    withOperation(
      ctx,
      args,
      async ({ table, op, fail, params }) => {
        const auth = table.auth as NonNullable<typeof table.auth>;
        const json = bodyFor(table, op, ctx.seed, args.json);
        const none = await send(ctx, op, params, { json, auth: false });
        if (none.status !== auth.status) fail(`${op.id} without credentials answered ${none.status}; expected ${auth.status}`, { expected: auth.status, actual: none.status, exchange: none.exchange });
        const forged = await send(ctx, op, params, { json, auth: false, headers: { [auth.header]: auth.value.replace(/\$\{[^}]*\}/g, 'specgate-never-issued-0') } });
        if (forged.status !== auth.status)
          fail(`${op.id} with a credential the target never issued answered ${forged.status}; expected ${auth.status}`, { expected: auth.status, actual: forged.status, exchange: forged.exchange });
      },
      (table, op) => {
        if (!table.auth || !op.auth) throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: ${op.id} needs no credentials in ${table.file} (no auth:, or auth: false), so api.authRequired cannot judge it`);
      },
    ),
});
