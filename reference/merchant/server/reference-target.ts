import type { ReferenceTarget, RunningReference } from '../../../src/engine/suite-module.js';
import { startMerchantServer, type MerchantServerOptions, type RunningMerchantServer } from './server.js';

/**
 * The variables the merchant cases use, for a running reference service. A profile for another
 * implementation sets the same names.
 */
export function merchantVars(server: Pick<RunningMerchantServer, 'url' | 'merchantId' | 'cssGroupId' | 'cssDomainId'>): Record<string, unknown> {
  return { merchant_url: server.url, merchant_id: server.merchantId, css_group_id: server.cssGroupId, css_domain_id: server.cssDomainId, country: 'US' };
}

export interface MerchantReferenceOptions extends MerchantServerOptions {
  /**
   * The client application the client-side cases judge (`vars.merchant_client_command`), when
   * the caller has one to add; the suite module adds the bundled reference client itself.
   */
  clientCommand?: unknown;
}

/** Starts the reference service and describes it as a target. */
export async function startMerchantReference(opts: MerchantReferenceOptions = {}): Promise<RunningReference & { server: RunningMerchantServer }> {
  const { clientCommand, ...serverOptions } = opts;
  const server = await startMerchantServer(serverOptions);
  const where = server.url === server.listenUrl ? `${server.url}/content/v2.1` : `${server.url}/content/v2.1 (listening on ${server.listenUrl})`;
  return {
    description: `reference merchant service (spec 001 part D) at ${where}`,
    vars: { ...merchantVars(server), ...(clientCommand === undefined ? {} : { merchant_client_command: clientCommand }) },
    server,
    ...(server.url !== server.listenUrl ? { served: { listening: server.listenUrl } } : {}),
    stop: () => server.stop(),
  };
}

/** The reference service alone, on the engine's clock (the suite adds the client under test). */
export const merchantReference: ReferenceTarget = {
  start: ({ clock, port, publicUrl }) => startMerchantReference({ clock, ...(port ? { port } : {}), ...(publicUrl ? { publicUrl } : {}) }),
  takesPublicUrl: true,
};
