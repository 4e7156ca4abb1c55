import { judgedCheck } from '../../../src/engine/checks/judged.js';
import { CLIENT_JUDGES } from './client-judges.js';
import { eventsClientCommand, runClient, type ClientRun } from './client-run.js';

interface ClientArgs {
  budgetSeconds?: number;
}

/**
 * `events.clientRequests`: launches the client under test against the monitoring API and the
 * platform specgate plays (reference/events/client/README.md gives the launch contract; the
 * platform asks for a 1-second poll interval that grows to 2), and judges what it sent: keys,
 * the dependency `env`, bearer token, headers, `per_page`, the post body, If-None-Match, the
 * waits between polls, v1 paging and v2 cursors. The cases of one run share one launch.
 */
export const clientRequests = judgedCheck<ClientArgs, ClientRun>({
  description: 'launch the events client against the played services and judge its requests: keys, env, headers, per_page, post body, polling, paging',
  args: {
    type: 'object',
    additionalProperties: false,
    properties: { budgetSeconds: { type: 'number', exclusiveMinimum: 0, description: 'how long the client gets to finish (default 20)' } },
  },
  share: true,
  shareBy: (args, ctx) => ({ client: ctx.vars['events_client_command'] ?? null, ...args }),
  observe: (ctx, args) => runClient(ctx, eventsClientCommand(ctx), (args.budgetSeconds ?? 20) * 1000),
  judgeBy: CLIENT_JUDGES,
});
