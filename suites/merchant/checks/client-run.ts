import type { CheckContext } from '../../../src/engine/suite-module.js';
import { finishClient, withClientHarness, type FinishedClient } from '../../../src/targets/client-process/harness.js';
import { startRecordingProxy, type ProxiedExchange } from '../../../src/targets/recording-proxy.js';
import { neutralNames, renameSegments } from '../../../src/engine/api/path-names.js';
import { startMerchantServer } from '../../../reference/merchant/server/server.js';
import { clientCommandVar } from '../../../src/targets/client-process/command-var.js';

/** The client application as errors name it: how a user gives it. */
export const MERCHANT_CLIENT = 'merchant client (--merchant-client "<command line>" or vars.merchant_client_command)';

/** What one launch of the client under test showed: every request it sent, and how it ended. */
export interface ClientRun {
  /** The played service's root URL as the client was told it (SPECGATE_MERCHANT_URL). */
  root: string;
  exchanges: ProxiedExchange[];
  finished: FinishedClient;
}

/**
 * The client application under test: `vars.merchant_client_command`, which
 * `--merchant-client "<command line>"` sets and the embedded reference fills with the
 * reference client.
 */
export function merchantClientCommand(ctx: CheckContext): unknown {
  return clientCommandVar(ctx.vars, 'merchant_client_command', MERCHANT_CLIENT);
}

/**
 * Plays the merchant service for a client: the reference service (its own, fresh), behind a
 * recording proxy, so every request the client sends is kept with the answer it got. The
 * client starts with the launch contract of reference/merchant/client/README.md and has
 * `budgetMs` to finish; one that is still running then is stopped and judged on what it sent.
 */
export async function runClient(ctx: CheckContext, command: unknown, budgetMs: number): Promise<ClientRun> {
  return withClientHarness(ctx.signal, async (h) => {
    const service = h.own(await startMerchantServer({}));
    // a client that uses the original API's words for the spec's neutral path segments (profile
    // `paths:`) reaches the played service, which knows the spec's words, through the proxy
    const names = neutralNames(ctx.api?.pathNames ?? {});
    const proxy = h.own(await startRecordingProxy(service.url, { rewrite: (url) => renameSegments(url, names) }));
    const client = h.launch(
      command,
      {
        SPECGATE_MERCHANT_URL: proxy.url,
        SPECGATE_MERCHANT_ID: service.merchantId,
        SPECGATE_CSS_GROUP_ID: service.cssGroupId,
        SPECGATE_CSS_DOMAIN_ID: service.cssDomainId,
      },
      MERCHANT_CLIENT,
    );
    await client.waitForExit(budgetMs);
    const finished = await finishClient(client, 'merchant client');
    return { root: proxy.url, exchanges: [...proxy.exchanges], finished };
  });
}
