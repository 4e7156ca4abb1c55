import type { CheckContext } from '../../../src/engine/suite-module.js';
import type { AgentResult } from '../../../reference/oauth/server/agent.js';
import type { ObservedRequest } from '../../../reference/oauth/server/observation.js';
import { clientEnvVars, type ClientEnv } from '../../../reference/oauth/client/contract.js';
import { describeExit, type ClientExit } from '../../../src/targets/client-process/client-process.js';
import { finishClient, withClientHarness } from '../../../src/targets/client-process/harness.js';
import { CLIENT_APP } from './client-command.js';
import { isClientEndpoint, timeline } from './client-log.js';
import { startClientPlatform } from './client-platform.js';
import { CLIENT_TIMING } from './client-timing.js';

/**
 * One web application flow with the client under test (spec 000, B, Endpoints 1-3), the
 * harness playing the platform and the person at the browser:
 * 1. start the platform and the client; 2. take the authorization URL the client prints;
 * 3. open it in the harness's browser, sign in and press Authorize; 4. deliver the platform's
 * redirect to the client's redirect URI (optionally tampered with); 5. let the client finish;
 * 6. hand back everything observed.
 */
export interface WebRunOptions {
  /** Changes the redirect before it is delivered (state-mismatch cases). */
  tamper?: (location: URL) => URL;
  /** How long to wait for the client to end after the redirect (ms). */
  finishMs?: number;
  /** SPECGATE_SCOPE (default: two scopes). */
  scope?: string;
}

export interface WebRun {
  env: ClientEnv;
  t0: number;
  /** The authorization URL the client printed. */
  authorizeUrl?: URL;
  consent?: AgentResult;
  /** The redirect as the platform made it, and as delivered. */
  redirect?: URL;
  delivered?: { url: string; status: number };
  /** The client's own requests: token endpoint and API, whatever their method. */
  requests: ObservedRequest[];
  exit: ClientExit | undefined;
  /** True when the harness had to stop the client. */
  stopped: boolean;
  stdout: string;
  stderr: string;
  /** Why the flow could not be followed to its end (what is then not judged). */
  problem?: string;
}

const AUTHORIZE_URL = /https?:\/\/[^\s"'<>]*\/login\/oauth\/authorize\?[^\s"'<>]*/;

export function findAuthorizeUrl(stdout: string): URL | undefined {
  const m = AUTHORIZE_URL.exec(stdout);
  return m && URL.canParse(m[0]) ? new URL(m[0]) : undefined;
}

/**
 * Runs the flow inside the client-process harness: the platform and the client are stopped
 * when the run ends. The platform's log of the client's requests and the client's run are
 * recorded as exchanges; the redirect is delivered through the engine (recorded too).
 */
export function runWebFlow(ctx: CheckContext, command: unknown, opts: WebRunOptions = {}): Promise<WebRun> {
  return withClientHarness(ctx.signal, async (harness) => {
    const platform = await startClientPlatform({ flow: 'web', toleranceMs: CLIENT_TIMING.toleranceMs, seed: ctx.seed, ...(opts.scope !== undefined ? { scope: opts.scope } : {}) }, harness);
    const t0 = harness.clock.now();
    const client = harness.launch(command, clientEnvVars(platform.env), CLIENT_APP);
    const run: WebRun = { env: platform.env, t0, requests: [], exit: undefined, stopped: false, stdout: '', stderr: '' };
    try {
      run.authorizeUrl = await client.waitForOutput(findAuthorizeUrl, CLIENT_TIMING.startMs);
      if (!run.authorizeUrl) {
        run.problem = `the client printed no authorization URL (${platform.env.authUrl}/login/oauth/authorize?...) within ${CLIENT_TIMING.startMs / 1000} s${client.exit() ? ` and exited with ${describeExit(client.exit())}` : ''}`;
        return run;
      }
      run.consent = await platform.user.perform('approve', { query: Object.fromEntries(run.authorizeUrl.searchParams) });
      ctx.exchange({ kind: 'note', summary: 'browser: open the authorization URL and press Authorize', request: run.authorizeUrl.toString(), response: run.consent });
      if (run.consent.outcome !== 'redirected' || !run.consent.location) {
        run.problem = `the platform refused the client's authorization request (${run.consent.outcome}${run.consent.error ? `: ${run.consent.error}` : ''}), so no code was issued`;
        return run;
      }
      run.redirect = new URL(run.consent.location);
      const target = opts.tamper ? opts.tamper(new URL(run.redirect)) : run.redirect;
      try {
        const res = await ctx.request({ method: 'GET', url: target.toString(), headers: { accept: 'text/html' }, timeoutMs: CLIENT_TIMING.deliverMs });
        run.delivered = { url: target.toString(), status: res.status };
      } catch (e) {
        run.problem = `the redirect could not be delivered to ${target.toString()} (${(e as Error).message}): the client was not listening at its redirect URI`;
        return run;
      }
      run.exit = await client.waitForExit(opts.finishMs ?? CLIENT_TIMING.finishMs);
      return run;
    } finally {
      const finished = await finishClient(client);
      Object.assign(run, { exit: finished.exit, stopped: finished.stopped, stdout: finished.stdout, stderr: finished.stderr });
      run.requests = platform.log.since(0).filter(isClientEndpoint);
      ctx.exchange(timeline(run.requests, t0, 'platform log of the web flow (the client\'s requests)'));
      ctx.exchange(finished.exchange);
    }
  });
}
