import type { CheckContext } from '../../../src/engine/suite-module.js';
import { clientCommandVar } from '../../../src/targets/client-process/command-var.js';
import { finishClient, withClientHarness } from '../../../src/targets/client-process/harness.js';
import { cutTail } from '../../../src/targets/text-cut.js';
import { ctxClientEnvVars } from '../../../reference/ctx-auth/client/contract.js';
import type { CtxObservation } from '../../../reference/ctx-auth/server/observations.js';
import { startCtxServer } from '../../../reference/ctx-auth/server/server.js';
import type { ScenarioRun, SentRequest, ToldClient } from './client-evidence.js';
import { PLAYED_SCOPE, PRECONFIGURED_CLIENT, SCENARIOS, SESSION_CALLS, type ScenarioName } from './client-scenarios.js';

/** The client under test as errors name it: how a user gives it. */
export const CTX_CLIENT = 'context-protocol client (--ctx-client "<command line>" or vars.ctx_client_command)';

/** The spec's header names, which a target profile's `headers:` may map to its own. */
export const NEUTRAL_VERSION_HEADER = 'CTX-Protocol-Version';
export const NEUTRAL_SESSION_HEADER = 'CTX-Session-Id';

/** The client under test: `vars.ctx_client_command` (`--ctx-client`, or the embedded reference client). */
export function ctxClientCommand(ctx: CheckContext): unknown {
  return clientCommandVar(ctx.vars, 'ctx_client_command', CTX_CLIENT);
}

/**
 * The target's name for a neutral header (profile `headers:`), so a client that speaks a
 * vendor's names (MCP-Protocol-Version) is told, and judged on, its own.
 */
export function targetHeaderName(ctx: Pick<CheckContext, 'headerName'>, neutral: string): string {
  return ctx.headerName(neutral) || neutral;
}

export interface ScenarioLaunch {
  command: unknown;
  versionHeader: string;
  sessionHeader: string;
  /** How long the client gets to finish its session; then it is stopped and judged on what it sent. */
  budgetMs: number;
}

/** One observation of the played server as the judges read it ("request #n"). */
export function sentRequest(o: CtxObservation, n: number): SentRequest {
  const query = new URLSearchParams();
  for (const [name, values] of Object.entries(o.query)) for (const v of values) query.append(name, v);
  return { n, method: o.method, path: o.path, query, headers: o.headers, body: o.body, status: o.status, answerHeaders: o.responseHeaders, answerBody: o.responseBody };
}

/**
 * One launch of the client under test in a scenario: a fresh played server on 127.0.0.1 (real
 * clock: the client lives in real time), which records every request with its answer (the
 * redirects' codes, the tokens issued); the client started with the contract's variables, given
 * `budgetMs` to end; still running then, it is stopped by the harness and judged on what it sent.
 */
export function runScenario(ctx: CheckContext, scenario: ScenarioName, launch: ScenarioLaunch): Promise<ScenarioRun> {
  return withClientHarness(ctx.signal, async (h) => {
    // the server answers the session header by the name the client is told, and is stopped with the harness
    const server = h.own(await startCtxServer({ clock: h.clock, ...SCENARIOS[scenario].server, headerNames: { version: launch.versionHeader, session: launch.sessionHeader } }));
    const preconfigured = SCENARIOS[scenario].preconfigured;
    const told: ToldClient = {
      serverUrl: server.serverUrl,
      calls: SESSION_CALLS,
      scope: PLAYED_SCOPE,
      versionHeader: launch.versionHeader,
      sessionHeader: launch.sessionHeader,
      ...(preconfigured ? { clientId: PRECONFIGURED_CLIENT.clientId, redirectUri: PRECONFIGURED_CLIENT.redirectUri } : {}),
    };
    const client = h.launch(launch.command, ctxClientEnvVars(told), CTX_CLIENT);
    await client.waitForExit(launch.budgetMs);
    const finished = await finishClient(client, `ctx client (${scenario} scenario)`);
    return {
      scenario,
      told,
      requests: server.observations().map((o, i) => sentRequest(o, i + 1)),
      end: { stopped: finished.stopped, summary: finished.exchange.summary, budgetMs: launch.budgetMs, stderrTail: cutTail(finished.stderr.trim(), 300) },
    };
  });
}
