import { connect } from 'node:net';
import { finishClient, withClientHarness, type FinishedClient } from '../../../src/targets/client-process/harness.js';
import type { ClientProcess } from '../../../src/targets/client-process/client-process.js';
import { startRecordingProxy, type RecordingProxy } from '../../../src/targets/recording-proxy.js';
import { AFF_API_KEY } from '../../../reference/affiliate/model/keys.js';
import { failure, type Handler } from '../../../reference/affiliate/server/answers.js';
import { startAffiliateServer, type RunningAffiliateServer } from '../../../reference/affiliate/server/server.js';
import { REFUSAL_MESSAGE, REFUSAL_STATUS } from './integration-scenarios.js';
import { startLandingServer, type LandingServer } from './integration-landing.js';

/** The integration as errors name it: how a user gives it. */
export const AFFILIATE_INTEGRATION = 'affiliate integration (--affiliate-integration "<command line>" or vars.integration_command)';

/** How long the integration gets to accept connections on PORT (ms). */
export const LISTEN_BUDGET_MS = 20_000;
/** The first and the longest pause between two looks at PORT (ms): a quick start is seen at once, a slow one costs few connects. */
const LISTEN_POLL_FIRST_MS = 10;
const LISTEN_POLL_MAX_MS = 100;

/**
 * What the integration cases play, once per launched integration: a reference platform (its
 * autologin and redirect URLs below a landing server of specgate's) behind a recording proxy,
 * and the integration launched against it with the launch contract
 * (reference/affiliate/integration/README.md). It serves one scenario at a time: the platform
 * answers registrations as {@link IntegrationStage.scenario} says, and what a scenario's visit
 * caused is what the recorders got while it ran.
 */
export interface IntegrationStage {
  /** The scenario the platform answers registrations for now. */
  scenario: string;
  readonly apiKey: string;
  /** `http://127.0.0.1:<PORT>`: where the integration serves its pages. */
  readonly base: string;
  readonly landing: LandingServer;
  readonly platform: RunningAffiliateServer;
  readonly proxy: RecordingProxy;
  readonly process: ClientProcess;
  /** Why the integration cannot be visited (it never accepted a connection); undefined when it can. */
  readonly problem?: string;
  /** Stops the integration (its process group), then the servers; says how it ended. */
  stop(): Promise<FinishedClient>;
}

/**
 * The platform's answers for the stage's scenario: registration answered 201 instead of 200
 * (`signup-201`), or refused with {@link REFUSAL_MESSAGE} (`signup-refused`); the reference's
 * otherwise, the key and whitelist checks included.
 */
function scenarioHandlers(scenario: () => string): (id: string, reference: Handler) => Handler {
  return (id, reference) => {
    if (id !== 'registerLead') return reference;
    return (call, ctx) => {
      const a = reference(call, ctx);
      const now = scenario();
      if (now === 'signup-201') {
        if (a.status !== 200 || a.body === null || typeof a.body !== 'object') return a;
        const body = a.body as Record<string, unknown>;
        const server = typeof body['server'] === 'object' && body['server'] !== null ? { ...(body['server'] as Record<string, unknown>), httpCode: 201 } : body['server'];
        return { ...a, status: 201, body: { ...body, server } };
      }
      if (now === 'signup-refused') return a.status === 200 || a.status === 201 ? failure(ctx, REFUSAL_STATUS, [REFUSAL_MESSAGE]) : a;
      return a;
    };
  };
}

/** Resolves once something accepts connections on 127.0.0.1:`port`; false when the budget ran out or the process ended. */
async function listening(port: number, proc: ClientProcess, budgetMs: number): Promise<boolean> {
  const until = Date.now() + budgetMs;
  let pause = LISTEN_POLL_FIRST_MS;
  while (Date.now() < until && !proc.exit()) {
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
 * Starts a stage: the servers, then the integration (`command`), and waits until PORT accepts
 * connections. An integration that does not is stopped at once, and the stage says why in
 * `problem`. Everything started is stopped by `stop`, whatever happened.
 */
export function startStage(command: unknown): Promise<IntegrationStage> {
  const stop = new AbortController();
  return new Promise<IntegrationStage>((resolve, reject) => {
    let close: () => void = () => undefined;
    const closed = new Promise<void>((r) => (close = r));
    const played = withClientHarness(stop.signal, async (h) => {
      const landing = await startLandingServer(h);
      const stage: { scenario: string } = { scenario: '' };
      const platform = h.own(await startAffiliateServer({ landingUrl: landing.url, override: scenarioHandlers(() => stage.scenario) }));
      const proxy = h.own(await startRecordingProxy(platform.url));
      const apiKey = AFF_API_KEY;
      const port = await h.freePort();
      // PORT: where web applications conventionally read the port to listen on
      const proc = h.launch(command, { SPECGATE_AFFILIATE_URL: proxy.url, SPECGATE_AFFILIATE_API_KEY: apiKey, PORT: String(port) }, AFFILIATE_INTEGRATION);
      const base = `http://127.0.0.1:${port}`;
      const up = await listening(port, proc, LISTEN_BUDGET_MS);
      let finished: Promise<FinishedClient> | undefined = up ? undefined : finishClient(proc, 'affiliate integration');
      const early = finished ? await finished : undefined;
      const problem = early ? `the integration did not accept connections on ${base} within ${LISTEN_BUDGET_MS / 1000} s (it ${early.stopped ? 'was stopped' : 'ended'}: ${early.exchange.summary})` : undefined;
      resolve(
        Object.assign(stage, {
          apiKey,
          base,
          landing,
          platform,
          proxy,
          process: proc,
          ...(problem !== undefined ? { problem } : {}),
          stop: async (): Promise<FinishedClient> => {
            finished ??= finishClient(proc, 'affiliate integration');
            const how = await finished;
            close();
            await played;
            stop.abort();
            return how;
          },
        }),
      );
      await closed;
    });
    played.catch(reject);
  });
}
