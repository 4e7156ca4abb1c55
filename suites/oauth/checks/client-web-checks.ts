import { PASS, unjudged, type Judge, type Verdict } from '../../../src/engine/checks/contract.js';
import { isFailed, judgedCheck, verdictFailure } from '../../../src/engine/checks/judged.js';
import { clientCommand, runKey } from './client-command.js';
import { FIXED_MUTATIONS, generatedMutation, judgeStateAbort, judgeStateUnguessable, tamperState, type StateMutation } from './client-state-judges.js';
import { WEB_JUDGES } from './client-web-judges.js';
import { runWebFlow, type WebRun } from './client-web-run.js';

/**
 * The web-flow checks of the oauth suite's client side: specgate plays the platform (spec 000
 * part B) and the person at the browser, launches the client application under test
 * (`client_command`) in the client-process harness, and judges the requirements the case lists.
 */

/** `scope`: the space-delimited scopes the client is told to request (SPECGATE_SCOPE). */
const SCOPE = { type: 'string', description: 'space-delimited scopes the client is told to request (SPECGATE_SCOPE); default "repo read:user"' };

interface WebArgs {
  launches?: number;
  scope?: string;
}

const judgeFirst = (judge: Judge<WebRun>): Judge<WebRun[]> => (runs) => judge(runs[0] as WebRun, undefined);

/**
 * `oauth.clientWebFlow`: the web application flow, approved by the user, end to end; `launches`
 * runs of it side by side (2 for OAUTH-CLIENT-STATE, which compares two launches). Cases with
 * the same arguments share the runs.
 */
export const clientWebFlow = judgedCheck<WebArgs, WebRun[]>({
  description: 'launch the client for the web application flow (the user approves) and judge what the platform saw',
  args: {
    type: 'object',
    additionalProperties: false,
    properties: {
      launches: { type: 'integer', minimum: 1, maximum: 8, description: 'runs of the flow, side by side (default 1)' },
      scope: SCOPE,
    },
  },
  share: true,
  shareBy: (args, ctx) => runKey(ctx, { launches: args.launches ?? 1, scope: args.scope ?? null }),
  observe: (ctx, args) => {
    const command = clientCommand(ctx);
    const opts = args.scope === undefined ? {} : { scope: args.scope };
    return Promise.all(Array.from({ length: args.launches ?? 1 }, () => runWebFlow(ctx, command, opts)));
  },
  judgeBy: {
    'OAUTH-CLIENT-STATE': judgeStateUnguessable,
    ...Object.fromEntries(Object.entries(WEB_JUDGES).map(([id, judge]) => [id, judgeFirst(judge)])),
  },
});

/** What the state-mismatch check saw: the fixed changes' verdicts, and generated ones it could not judge. */
interface MismatchRuns {
  fixed: Verdict[];
  notJudged: string[];
}

/**
 * `oauth.clientStateMismatch`: the genuine redirect with its state changed is delivered; the
 * client must not exchange its code (OAUTH-CLIENT-STATE-ABORT). Every fixed change (missing,
 * empty, truncated, case flipped) runs once; when all of them pass, `runs` generated changes
 * (another value, the state with a suffix; default 4) run as a property, shrunk and replayable
 * on failure: the property records its own counterexample, the judge the rest.
 */
export const clientStateMismatch = judgedCheck<{ runs?: number }, MismatchRuns>({
  description: 'deliver redirects with a changed state (fixed changes, then generated ones) and judge that the client never exchanges their code',
  args: {
    type: 'object',
    additionalProperties: false,
    properties: { runs: { type: 'integer', minimum: 1, description: 'generated state changes to try after the fixed ones (default 4)' } },
  },
  observe: async (ctx, args) => {
    const command = clientCommand(ctx);
    const attempt = async (m: StateMutation): Promise<Verdict> => {
      const v = judgeStateAbort(await runWebFlow(ctx, command, { tamper: tamperState(m), finishMs: 5000 }));
      return isFailed(v) ? { ...v, message: `${v.message} (state ${m.kind})` } : v;
    };
    const fixed = await Promise.all(FIXED_MUTATIONS.map(attempt));
    const notJudged: string[] = [];
    if (fixed.some((v) => 'unjudged' in v || isFailed(v))) return { fixed, notJudged };
    await ctx.property(
      generatedMutation,
      async (m) => {
        const v = await attempt(m);
        if ('unjudged' in v) notJudged.push(`${m.kind}: ${v.unjudged}`);
        else if (isFailed(v)) return verdictFailure('OAUTH-CLIENT-STATE-ABORT', v);
        return undefined;
      },
      { runs: args.runs ?? 4, label: 'state mutation' },
    );
    return { fixed, notJudged };
  },
  judgeBy: {
    'OAUTH-CLIENT-STATE-ABORT': ({ fixed, notJudged }) => {
      const first = fixed.find((v) => 'unjudged' in v) ?? fixed.find(isFailed);
      if (first) return first;
      return notJudged[0] === undefined ? PASS : unjudged(notJudged[0]);
    },
  },
});
