import { appKeyPermissions, isApiKey, isRateLimitedApiKey, type AppPermission } from '../../model/monitor-keys.js';
import { monFailure, type Handler } from '../answers.js';

/** The spec's header names (G, Authentication 1). */
export const API_KEY_HEADER = 'mon-api-key';
export const APP_KEY_HEADER = 'mon-application-key';

/**
 * What an operation needs of its caller: `api` the API key only (posting an event), `app` both
 * keys (the dependency endpoints), or both keys with the application key holding a permission
 * (the event read endpoints need `events_read`, G Authentication 2).
 */
export type KeyNeed = 'api' | 'app' | AppPermission;

/**
 * Guards a monitoring handler: the API key whose quota is spent answers 429 `{errors: ["Too
 * many requests"]}`; a missing or unknown key, or an application key without the permission,
 * answers 403 `{errors: ["Forbidden"]}` before the handler runs.
 */
export function withKeys(need: KeyNeed, handler: Handler): Handler {
  return (call, ctx) => {
    if (isRateLimitedApiKey(call.headers[API_KEY_HEADER])) return monFailure(429, 'Too many requests');
    if (!isApiKey(call.headers[API_KEY_HEADER])) return monFailure(403, 'Forbidden');
    if (need === 'api') return handler(call, ctx);
    const permissions = appKeyPermissions(call.headers[APP_KEY_HEADER]);
    if (!permissions) return monFailure(403, 'Forbidden');
    if (need !== 'app' && !permissions.includes(need)) return monFailure(403, 'Forbidden');
    return handler(call, ctx);
  };
}
