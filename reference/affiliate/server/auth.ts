import { API_KEY_HEADER } from '../model/keys.js';
import { failure, type AffiliateCall, type Answer, type HandlerContext } from './answers.js';

/** Status for a caller address that is not whitelisted (not shown in the spec; the reference's choice). */
export const NOT_WHITELISTED_STATUS = 403;
/** Status for a missing or wrong `Api-Key` (not shown in the spec; the reference's choice). */
export const BAD_KEY_STATUS = 401;

/**
 * The reference's access rule (E Authentication 1 and 2): the caller's address must be on the
 * whitelist (checked first: an address the platform does not know gets no further), then the
 * `Api-Key` header must carry the issued key.
 */
export function referenceAuthorize(call: AffiliateCall, ctx: HandlerContext): Answer | undefined {
  if (!ctx.whitelist.includes(call.remoteAddress)) return failure(ctx, NOT_WHITELISTED_STATUS, [`the address ${call.remoteAddress} is not whitelisted for this API key`]);
  const key = call.headers[API_KEY_HEADER];
  if (key === undefined || key === '') return failure(ctx, BAD_KEY_STATUS, ['the Api-Key header is required']);
  if (key !== ctx.apiKey) return failure(ctx, BAD_KEY_STATUS, ['the Api-Key is not valid']);
  return undefined;
}

/** Runs `then` for a caller that may call, else answers the refusal. */
export function authorized(call: AffiliateCall, ctx: HandlerContext, then: () => Answer): Answer {
  return ctx.authorize(call, ctx) ?? then();
}
