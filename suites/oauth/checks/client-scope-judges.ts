import type { Exchange } from '../../../src/engine/model.js';
import type { ObservedRequest } from '../../../reference/oauth/server/observation.js';
import type { DeviceRun } from './client-device-run.js';
import { isDeviceStart, toExchange } from './client-log.js';
import { PASS, fail, unjudged, type Verdict } from '../../../src/engine/checks/contract.js';
import type { WebRun } from './client-web-run.js';

/**
 * OAUTH-CLIENT-SCOPE-SPACES: `scope` is a list of space-delimited scopes in the authorization
 * request (spec 000, B, Endpoints 1) and in the device code request (Endpoints 4). The scopes
 * the harness asks for (SPECGATE_SCOPE) contain no commas or semicolons, so either character
 * in the parameter can only be a separator other than the space.
 */
function verdict(sent: string, where: string, exchange: Exchange): Verdict {
  if (/[,;]/.test(sent)) {
    return fail(`the ${where} sends scope=${JSON.stringify(sent)}: the scopes are not space-delimited`, { expected: sent.split(/[,;\s]+/).filter(Boolean).join(' '), actual: sent, exchange });
  }
  return PASS;
}

export function judgeWebScope(run: WebRun): Verdict {
  if (!run.authorizeUrl) return unjudged(run.problem ?? 'the client printed no authorization URL');
  const sent = run.authorizeUrl.searchParams.get('scope');
  if (sent === null) return unjudged(`the authorization request asks for no scope although the client was told to request "${run.env.scope}"`);
  return verdict(sent, 'authorization request', { kind: 'note', summary: 'authorization URL printed by the client', request: run.authorizeUrl.toString() });
}

export function judgeDeviceScope(run: DeviceRun): Verdict {
  const starts = run.requests.filter(isDeviceStart);
  if (!starts.length) return unjudged(`the client sent no device code request (${run.ended})`);
  const withScope = starts.filter((e: ObservedRequest) => e.params['scope'] !== undefined);
  if (!withScope.length) return unjudged(`the device code request asks for no scope although the client was told to request "${run.env.scope}"`);
  for (const e of withScope) {
    const v = verdict(e.params['scope'] ?? '', 'device code request', toExchange(e, run.t0));
    if (!('ok' in v) || !v.ok) return v;
  }
  return PASS;
}
