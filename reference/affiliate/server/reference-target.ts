import type { ReferenceTarget, RunningReference } from '../../../src/engine/suite-module.js';
import { AUTOLOGIN_SHAPES, shapeName } from '../model/autologin.js';
import { DAY_MS, formatDateTime } from '../model/dates.js';
import { UNLISTED_SOURCE, WHITELISTED_SOURCE } from '../model/keys.js';
import { SEED_DAYS } from '../model/seed-leads.js';
import { startAffiliateServer, type AffiliateServerOptions, type RunningAffiliateServer } from './server.js';

/**
 * The variables the affiliate cases use, for a running reference platform (see the suite's
 * suite.yaml). A profile for another platform sets the same names. `refusal_status` is left
 * out: the reference refuses a key with 401 and an address with 403, so no one status holds.
 * Beyond the design's names: `autologin_lead_<shape>` (a seeded lead per autologin target
 * shape, e.g. `autologin_lead_post_array_fragment`) and `case_twin_lead_ids` (two lead IDs
 * that differ in letter case only).
 */
export function affiliateVars(server: Pick<RunningAffiliateServer, 'url' | 'model' | 'apiKey'>): Record<string, unknown> {
  const model = server.model;
  const now = model.clock.now();
  const shapes: Record<string, unknown> = {};
  for (const shape of AUTOLOGIN_SHAPES) {
    const lead = model.leadWithShape(shape);
    if (lead) shapes[`autologin_lead_${shapeName(shape).replace(/-/g, '_')}`] = lead.id;
  }
  const first = model.leads.find((l) => !l.registration);
  return {
    affiliate_url: server.url,
    api_key: server.apiKey,
    whitelisted_source: WHITELISTED_SOURCE,
    unlisted_source: UNLISTED_SOURCE,
    lead_request_id: first?.id,
    // a day either side: the window holds every seeded lead and conversion, and leads registered today
    from_date: formatDateTime(now - (SEED_DAYS + 1) * DAY_MS),
    to_date: formatDateTime(now + DAY_MS),
    case_twin_lead_ids: model.caseTwins(),
    ...shapes,
  };
}

/** Starts the reference platform and describes it as a target. */
export async function startAffiliateReference(opts: AffiliateServerOptions & { standalone?: boolean } = {}): Promise<RunningReference & { server: RunningAffiliateServer }> {
  const { standalone, ...serverOpts } = opts;
  const server = await startAffiliateServer(serverOpts);
  const where = server.url === server.listenUrl ? server.url : `${server.url} (listening on ${server.listenUrl})`;
  const vars = affiliateVars(server);
  return {
    description: `reference affiliate lead platform (spec 001 part E) at ${where}`,
    vars,
    server,
    ...(standalone ? { served: { listening: server.listenUrl, vars: servedVars(vars, opts.publicUrl !== undefined) } } : {}),
    stop: () => server.stop(),
  };
}

/**
 * The variables a profile for a served platform gives: behind a forwarding proxy every call
 * arrives from the proxy's address, so the whitelist cannot be judged by leaving from another
 * local address and `unlisted_source` is left out (its case is skipped, saying so).
 */
function servedVars(vars: Record<string, unknown>, proxied: boolean): Record<string, unknown> {
  if (!proxied) return vars;
  const { unlisted_source: _unlisted, ...rest } = vars;
  return rest;
}

/**
 * The embedded default target of the affiliate suite: a fresh platform seeded on the engine's
 * clock (the 60 days of leads and conversions end at its now), on `port` under
 * `specgate serve --port N`.
 */
export const affiliateReference: ReferenceTarget = {
  start: ({ clock, port, standalone, publicUrl }) => startAffiliateReference({ clock, ...(port ? { port } : {}), ...(standalone ? { standalone } : {}), ...(publicUrl ? { publicUrl } : {}) }),
  takesPublicUrl: true,
};
