import type { CheckContext } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { CHROMIUM_HINT, CHROMIUM_VAR, NO_BROWSER, findChromium, requireChromium } from '../../../src/targets/browser/find-chromium.js';
import { warmBrowser, withBrowser } from '../../../src/targets/browser/shared-browser.js';
import { visitPage, type PageVisit } from '../../../src/targets/browser/page-visit.js';
import { clientCommandVar } from '../../../src/targets/client-process/command-var.js';
import type { ProxiedExchange } from '../../../src/targets/recording-proxy.js';
import type { AutologinTarget } from '../../../reference/affiliate/model/autologin.js';
import { AUTOLOGIN_SCENARIOS, REFUSAL_MESSAGE, VISITOR, isSignup } from './integration-scenarios.js';
import type { LandingHit } from './integration-landing.js';
import { StagePool } from './integration-pool.js';
import { AFFILIATE_INTEGRATION, startStage, type IntegrationStage } from './integration-stage.js';

export { AFFILIATE_INTEGRATION, LISTEN_BUDGET_MS } from './integration-stage.js';

/**
 * How long one browser visit may take (ms), form filling included: a correct integration's
 * visit ends on an event (the landing page loaded, the refusal shown) long before; this only
 * ends a hung page, and leaves a loaded machine's renderer, seconds behind, the time it needs.
 */
export const VISIT_BUDGET_MS = 30_000;
/**
 * Launched integrations a run drives at once (one visit each at a time): a visit waits on the
 * browser and the integration about as long as it computes, so three keep two cores busy (two
 * left them idle between a visit's steps, and each launch more costs a process's start).
 */
export const INTEGRATION_STAGES = 3;
/** How long a launched integration no case uses waits for the next case (ms). */
export const STAGE_IDLE_MS = 1000;

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
  /** What the integration wrote to stderr so far (a launched integration serves the run's cases one after another). */
  stderr: string;
}

/** The integration under test: `vars.integration_command`, set by `--affiliate-integration` and by the embedded reference. */
export function integrationCommand(ctx: CheckContext): unknown {
  return clientCommandVar(ctx.vars, 'integration_command', AFFILIATE_INTEGRATION);
}

/**
 * The browser's part of a scenario, in a fresh context of the run's shared browser. Every wait
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

const pools = new Map<string, StagePool<IntegrationStage>>();

/** The launched integrations of `command`: started as cases need them, shared by the run's cases. */
function stagesOf(command: unknown): StagePool<IntegrationStage> {
  const key = JSON.stringify(command) ?? '';
  let pool = pools.get(key);
  if (!pool) {
    pool = new StagePool<IntegrationStage>({
      size: INTEGRATION_STAGES,
      idleMs: STAGE_IDLE_MS,
      start: () => startStage(command),
      reusable: (stage) => stage.problem === undefined && !stage.process.exit(),
      stop: (stage) => stage.stop().then(() => undefined),
    });
    pools.set(key, pool);
  }
  return pool;
}

/** Stops every launched integration no case uses now (the end of a run). */
export async function closeIntegrationStages(): Promise<void> {
  await Promise.all([...pools.values()].map((p) => p.close()));
}

/**
 * Plays the platform for one scenario: takes a launched integration of `command` (a stage:
 * the reference platform behind a recorder, its autologin and redirect URLs below a landing
 * server; see integration-stage.ts), started when none is free, drives the browser through the
 * scenario, and keeps what the platform and the landing server got meanwhile. The launch
 * contract (reference/affiliate/integration/README.md) lets one launched integration serve the
 * cases one after another; {@link INTEGRATION_STAGES} of them serve cases in parallel.
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
  // Chromium starts while the integration does: neither waits for the other
  warmBrowser();
  return stagesOf(command).use(ctx.signal, async (stage) => {
    let target: AutologinTarget | undefined;
    let leadId = '';
    if (shape) {
      const lead = stage.platform.model.leadWithShape(shape);
      if (!lead) throw new SpecgateError('SG_INTERNAL', `the reference platform has no seeded lead with a ${shape.method} target and parameters as an ${shape.parameters}`);
      target = stage.platform.model.targetOf(lead);
      leadId = lead.id;
    }
    const fromExchange = stage.proxy.exchanges.length;
    const fromLanding = stage.landing.hits.length;
    stage.scenario = scenario;
    const visit = stage.problem === undefined ? await drive(scenario, stage.base, stage.landing.url, leadId, ctx.signal) : undefined;
    const run: IntegrationRun = {
      scenario,
      apiKey: stage.apiKey,
      platformOrigins: [new URL(stage.proxy.url).origin, new URL(stage.platform.url).origin],
      landingOrigin: stage.landing.url,
      exchanges: stage.proxy.exchanges.slice(fromExchange),
      landings: stage.landing.hits.slice(fromLanding),
      stderr: stage.process.stderr(),
      ...(visit ? { visit } : {}),
      ...(target ? { target } : {}),
      ...(stage.problem !== undefined ? { problem: stage.problem } : {}),
    };
    return run;
  });
}
