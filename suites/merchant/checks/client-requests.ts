import { judgedCheck } from '../../../src/engine/checks/judged.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { CLIENT_JUDGES, type JudgedRun } from './client-judges.js';
import { merchantClientCommand, runClient } from './client-run.js';

interface ClientArgs {
  budgetSeconds?: number;
}

function tableOf(ctx: CheckContext): JudgedRun['table'] {
  if (!ctx.api) throw new SpecgateError('SG_SUITE_SCHEMA', `suite ${ctx.suite} has no api.yaml; merchant.clientRequests judges requests against it`);
  return ctx.api.table;
}

/**
 * `merchant.clientRequests`: launches the client under test against the merchant service
 * specgate plays (reference/merchant/client/README.md gives the launch contract), and judges
 * every request it sent against the route table: below /content/v2.1, a path of the table,
 * with that path's method, and custombatch calls without a merchant id. The cases of one run
 * share one launch.
 */
export const clientRequests = judgedCheck<ClientArgs, JudgedRun>({
  description: 'launch the merchant client against the played service and judge every request it sent: prefix, route, method, batch path',
  args: {
    type: 'object',
    additionalProperties: false,
    properties: { budgetSeconds: { type: 'number', exclusiveMinimum: 0, description: 'how long the client gets to finish (default 60)' } },
  },
  share: true,
  shareBy: (args, ctx) => ({ client: ctx.vars['merchant_client_command'] ?? null, ...args }),
  observe: async (ctx, args) => ({ ...(await runClient(ctx, merchantClientCommand(ctx), (args.budgetSeconds ?? 60) * 1000)), table: tableOf(ctx) }),
  judgeBy: CLIENT_JUDGES,
});
