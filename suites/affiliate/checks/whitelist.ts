import { undici } from '../../../src/targets/undici-lazy.js';
import { SpecgateError } from '../../../src/errors.js';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckResponse } from '../../../src/engine/suite-module.js';
import { failure, notRefused, textVar, unmet } from './support.js';

/** The request URL and headers a recorded exchange holds. */
function sentWith(res: CheckResponse): { url: string; headers: Record<string, string> } {
  const req = res.exchange.request as { url?: unknown; headers?: unknown } | undefined;
  if (!req || typeof req.url !== 'string') throw new SpecgateError('SG_INTERNAL', 'the recorded exchange has no request URL');
  const headers: Record<string, string> = {};
  if (req.headers && typeof req.headers === 'object') for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
  return { url: req.url, headers };
}

/**
 * `affiliate.whitelist`: the caller's address must be whitelisted (Authentication E 2). The offer
 * list is read with the key from specgate's usual source address (answered), then the very same
 * request (URL after the profile's path renaming, headers, key) is sent from `unlisted_source`,
 * a local address the platform has not whitelisted: it must be refused.
 */
export const whitelist = defineCheck<Record<string, never>>({
  description: 'a request with a valid key from a source address the platform has not whitelisted is refused',
  args: { type: 'object', additionalProperties: false, properties: {} },
  judges: 'case',
  async run(ctx) {
    const source = textVar(ctx, 'unlisted_source');
    const listed = await ctx.request({ operation: 'offers' });
    if (listed.status !== 200 && listed.status !== 201) return unmet(ctx, 'AFF-OFFERS-SHAPE', `the offer list from the whitelisted address answered ${listed.status}, not a success, so a refusal from ${source} cannot be told from it`, listed);
    const { url, headers } = sentWith(listed);
    // the real key: the recorded headers are redacted
    headers['api-key'] = textVar(ctx, 'api_key');
    // undici takes the source address as a client option (inside `connect` it is ignored)
    const agent = new (undici().Agent)({ localAddress: source });
    const started = Date.now();
    try {
      const answer = await undici().request(url, { method: 'GET', headers, dispatcher: agent, signal: ctx.signal });
      const bodyText = await answer.body.text();
      let body: unknown = bodyText;
      try {
        body = JSON.parse(bodyText) as unknown;
      } catch {
        // not JSON: judged by its status alone
      }
      const exchange = {
        kind: 'http' as const,
        summary: `GET ${url} from ${source} -> ${answer.statusCode}`,
        request: { method: 'GET', url, localAddress: source },
        response: { status: answer.statusCode, body: bodyText.slice(0, 2000) },
        durationMs: Date.now() - started,
      };
      ctx.exchange(exchange);
      const res = { status: answer.statusCode, body, exchange };
      const why = notRefused(ctx, res, `the offer list from ${source} (not whitelisted), with a valid key,`);
      if (why) ctx.fail(failure(why, res));
    } catch (e) {
      if (e instanceof Error && /EADDRNOTAVAIL|EINVAL/.test(e.message))
        throw new SpecgateError('SG_CONFIG', `unlisted_source ${source} is not an address of this machine (${e.message}); give a local address the platform has not whitelisted`);
      throw e;
    } finally {
      await agent.close();
    }
  },
});
