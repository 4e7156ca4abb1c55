import { connect } from 'node:net';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { CHROMIUM_HINT, CHROMIUM_VAR, NO_BROWSER, findChromium, requireChromium } from '../../../src/targets/browser/find-chromium.js';
import { warmBrowser, withBrowser } from '../../../src/targets/browser/shared-browser.js';
import { visitPage, type PageVisit } from '../../../src/targets/browser/page-visit.js';
import { clientCommandVar } from '../../../src/targets/client-process/command-var.js';
import { finishClient, withClientHarness, type FinishedClient } from '../../../src/targets/client-process/harness.js';
import type { ClientProcess } from '../../../src/targets/client-process/client-process.js';
import { startRecordingProxy, type ProxiedExchange } from '../../../src/targets/recording-proxy.js';
import type { AutologinTarget } from '../../../reference/affiliate/model/autologin.js';
import { AFF_API_KEY } from '../../../reference/affiliate/model/keys.js';
import { failure, type Handler } from '../../../reference/affiliate/server/answers.js';
import { startAffiliateServer } from '../../../reference/affiliate/server/server.js';
import { AUTOLOGIN_SCENARIOS, REFUSAL_MESSAGE, REFUSAL_STATUS, VISITOR, isSignup } from './integration-scenarios.js';
import { startLandingServer, type LandingHit } from './integration-landing.js';

/** The integration as errors name it: how a user gives it. */
export const AFFILIATE_INTEGRATION = 'affiliate integration (--affiliate-integration "<command line>" or vars.integration_command)';

/** How long the integration gets to accept connections on PORT (ms). */
export const LISTEN_BUDGET_MS = 20_000;
/** The first and the longest pause between two looks at PORT (ms): a quick start is seen at once, a slow one costs few connects. */
const LISTEN_POLL_FIRST_MS = 10;
const LISTEN_POLL_MAX_MS = 100;
/**
 * How long one browser visit may take (ms), form filling included: a correct integration's
 * visit ends on an event (the landing page loaded, the refusal shown) long before; this only
 * ends a hung page, and leaves a loaded machine's renderer, seconds behind, the time it needs.
 */
export const VISIT_BUDGET_MS = 30_000;

/** What one case showed: what the integration sent the platform, what the browser did, where it landed. */
export interface IntegrationRun {
  scenario: string;
  apiKey: string;
  /** Origins of the played platform (the proxy the integration was given, the server behind it). */
  platformOrigins: string[];
  landingOrigin: string;
  /** Every request the integration sent the platform, with the platform's answer. */
  exchanges: ProxiedExchange[];
  /** Every request that reached the landing server. */
  landings: LandingHit[];
  /** The browser's visit; undefined when the integration never accepted a connection. */
  visit?: PageVisit;
  /** The autologin target of the lead the scenario visits (autologin scenarios). */
  target?: AutologinTarget;
  /** Why the integration could not be visited, when it could not. */
  problem?: string;
  finished: FinishedClient;
}

/** The integration under test: `vars.integration_command`, set by `--affiliate-integration` and by the embedded reference. */
export function integrationCommand(ctx: CheckContext): unknown {
  return clientCommandVar(ctx.vars, 'integration_command', AFFILIATE_INTEGRATION);
}

/**
 * The platform's answers for the scenario: registration answered 201 instead of 200
 * (`signup-201`), or refused with {@link REFUSAL_MESSAGE} (`signup-refused`); the reference's
 * otherwise, the key and whitelist checks included.
 */
function scenarioHandlers(scenario: string): (id: string, reference: Handler) => Handler {
  return (id, reference) => {
    if (id !== 'registerLead') return reference;
    if (scenario === 'signup-201')
      return (call, ctx) => {
        const a = reference(call, ctx);
        if (a.status !== 200 || a.body === null || typeof a.body !== 'object') return a;
        const body = a.body as Record<string, unknown>;
        const server = typeof body['server'] === 'object' && body['server'] !== null ? { ...(body['server'] as Record<string, unknown>), httpCode: 201 } : body['server'];
        return { ...a, status: 201, body: { ...body, server } };
      };
    if (scenario === 'signup-refused')
      return (call, ctx) => {
        const a = reference(call, ctx);
        return a.status === 200 || a.status === 201 ? failure(ctx, REFUSAL_STATUS, [REFUSAL_MESSAGE]) : a;
      };
    return reference;
  };
}

/** Resolves once something accepts connections on 127.0.0.1:`port`; false when the budget ran out or the process ended. */
async function listening(port: number, proc: ClientProcess, budgetMs: number, signal: AbortSignal): Promise<boolean> {
  const until = Date.now() + budgetMs;
  let pause = LISTEN_POLL_FIRST_MS;
  while (Date.now() < until && !signal.aborted && !proc.exit()) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect({ host: '127.0.0.1', port });
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(LISTEN_POLL_MAX_MS, pause * 2);
  }
  return false;
}

/**
 * The browser's part of a scenario, in a seat of the run's shared browser (a context and a
 * tab, wiped of the last visit's cookies, storage and cache). Every wait
 * ends on an event: the page loaded, the field there, the landing page reached, the refusal
 * shown; the visit's budget, shared by its actions, only ends a page that hangs.
 */
async function drive(scenario: string, base: string, landingOrigin: string, leadId: string, signal: AbortSignal): Promise<PageVisit> {
  const atLanding = (u: URL): boolean => u.origin === landingOrigin;
  return withBrowser(signal, (browser) => {
    if (!isSignup(scenario)) return visitPage(browser, `${base}/autologin?leadRequestID=${encodeURIComponent(leadId)}`, { arriveAt: atLanding, timeoutMs: VISIT_BUDGET_MS });
    return visitPage(browser, `${base}/signup`, {
      act: async (page, left) => {
        for (const [name, value] of Object.entries(VISITOR)) await page.locator(`form [name="${name}"]`).first().fill(value, { timeout: left() });
        await page.locator('form button[type=submit], form input[type=submit], form button:not([type])').first().click({ timeout: left() });
      },
      // a refused sign-up stays with the integration: the visit ends once its page shows the refusal, or is idle
      ...(scenario === 'signup-refused' ? { showsText: REFUSAL_MESSAGE } : { arriveAt: atLanding }),
      timeoutMs: VISIT_BUDGET_MS,
    });
  });
}

/**
 * Plays the platform for one scenario: a fresh reference platform (its autologin and redirect
 * URLs below a landing server of specgate's), behind a recording proxy; launches the
 * integration with the launch contract (reference/affiliate/integration/README.md), waits
 * until PORT accepts connections, and drives the browser through the scenario.
 */
export async function runIntegration(ctx: CheckContext, command: unknown, scenario: string): Promise<IntegrationRun> {
  // Before anything starts: without a browser there is nothing to judge with. A machine with
  // none (or SPECGATE_CHROMIUM=none) skips the case saying what to install; a SPECGATE_CHROMIUM
  // that names no browser is the user's mistake, and errors.
  if (!findChromium()) {
    const named = process.env[CHROMIUM_VAR];
    if (named && named !== NO_BROWSER) requireChromium();
    ctx.skip(`no Chromium on this machine to render the integration's pages: ${CHROMIUM_HINT}`);
  }
  const shape = AUTOLOGIN_SCENARIOS[scenario];
  if (!shape && !isSignup(scenario)) throw new SpecgateError('SG_SUITE_SCHEMA', `unknown integration scenario "${scenario}"`);
  // Chromium starts while the platform and the integration do: neither waits for the other
  warmBrowser();
  return withClientHarness(ctx.signal, async (h) => {
    const landing = await startLandingServer(h);
    const platform = h.own(await startAffiliateServer({ landingUrl: landing.url, override: scenarioHandlers(scenario) }));
    const proxy = h.own(await startRecordingProxy(platform.url));
    let target: AutologinTarget | undefined;
    let leadId = '';
    if (shape) {
      const lead = platform.model.leadWithShape(shape);
      if (!lead) throw new SpecgateError('SG_INTERNAL', `the reference platform has no seeded lead with a ${shape.method} target and parameters as an ${shape.parameters}`);
      target = platform.model.targetOf(lead);
      leadId = lead.id;
    }
    const apiKey = AFF_API_KEY;
    const port = await h.freePort();
    // PORT: where web applications conventionally read the port to listen on
    const proc = h.launch(command, { SPECGATE_AFFILIATE_URL: proxy.url, SPECGATE_AFFILIATE_API_KEY: apiKey, PORT: String(port) }, AFFILIATE_INTEGRATION);
    const base = `http://127.0.0.1:${port}`;
    const up = await listening(port, proc, LISTEN_BUDGET_MS, ctx.signal);
    const visit = up ? await drive(scenario, base, landing.url, leadId, ctx.signal) : undefined;
    const finished = await finishClient(proc, 'affiliate integration');
    const run: IntegrationRun = {
      scenario,
      apiKey,
      platformOrigins: [new URL(proxy.url).origin, new URL(platform.url).origin],
      landingOrigin: landing.url,
      exchanges: [...proxy.exchanges],
      landings: [...landing.hits],
      finished,
      ...(visit ? { visit } : {}),
      ...(target ? { target } : {}),
    };
    if (!up) run.problem = `the integration did not accept connections on ${base} within ${LISTEN_BUDGET_MS / 1000} s (it ${finished.stopped ? 'was stopped' : 'ended'}: ${finished.exchange.summary})`;
    return run;
  });
}
