import { DEVICE_GRANT_TYPE } from '../model/limits.js';
import { errorFields, tokenFields, type Fields } from '../model/formats.js';
import type { Platform } from '../model/platform.js';
import { jsonReply, type Reply } from './http-util.js';
import type { RouteRequest } from './context.js';

/**
 * The machine-facing endpoints: token exchange and device polling (spec 000, B, Endpoints 2
 * and 5), device authorization (Endpoints 4) and GET {api_url}/user (Endpoints 3).
 */

function formatted(platform: Platform, req: RouteRequest, status: number, fields: Fields): Reply {
  const enc = platform.rules.encodeFields(fields, platform.rules.negotiateFormat(req.headers['accept']));
  return { status, contentType: enc.contentType, body: enc.body };
}

/** Device polling when the request names a device code or the device grant type. */
function isDevicePoll(p: Record<string, string>): boolean {
  return p['device_code'] !== undefined || p['grant_type'] === DEVICE_GRANT_TYPE || (p['code'] === undefined && p['grant_type'] !== undefined);
}

export function accessToken(req: RouteRequest, platform: Platform): Reply {
  const p = req.params;
  if (isDevicePoll(p)) {
    const r = platform.device.poll({ client_id: p['client_id'], device_code: p['device_code'], grant_type: p['grant_type'] });
    if (r.ok) return formatted(platform, req, 200, tokenFields(r.token.value, platform.tokens.scopeString(r.token)));
    const extra: Fields = r.interval !== undefined ? [['interval', r.interval]] : [];
    return formatted(platform, req, 400, errorFields(r.error, r.description, extra));
  }
  const r = platform.web.exchange({
    client_id: p['client_id'],
    client_secret: p['client_secret'],
    code: p['code'],
    redirect_uri: p['redirect_uri'],
    code_verifier: p['code_verifier'],
  });
  if (r.ok) return formatted(platform, req, 200, tokenFields(r.token.value, platform.tokens.scopeString(r.token)));
  return formatted(platform, req, 400, errorFields(r.error, r.description));
}

export function deviceCode(req: RouteRequest, platform: Platform, authUrl: string): Reply {
  const r = platform.device.start(req.params['client_id'], req.params['scope']);
  if (!r.ok) return formatted(platform, req, 400, errorFields(r.error, r.description));
  const g = r.grant;
  return formatted(platform, req, 200, [
    ['device_code', g.deviceCode],
    ['user_code', g.userCode],
    ['verification_uri', `${authUrl}/login/device`],
    ['expires_in', Math.round((g.expiresAt - g.issuedAt) / 1000)],
    ['interval', g.interval],
  ]);
}

export function apiUser(req: RouteRequest, platform: Platform): Reply {
  const auth = req.headers['authorization'] ?? '';
  const m = /^bearer\s+(\S+)\s*$/i.exec(auth);
  const user = platform.userForToken(m?.[1]);
  if (!user) return { ...jsonReply(401, { message: 'Bad credentials' }), headers: { 'www-authenticate': 'Bearer' } };
  return jsonReply(200, { login: user.login, id: user.id, name: user.name });
}
