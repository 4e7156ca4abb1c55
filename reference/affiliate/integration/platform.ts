import { nodeExchange } from '../../../src/targets/node-exchange.js';
import { PLATFORM_PATHS, type IntegrationEnv } from './contract.js';
import type { IntegrationBehaviour, LeadFields } from './behaviour.js';

/** A platform answer: its status and its JSON body (undefined when the body is not JSON). */
export interface PlatformAnswer {
  status: number;
  body: unknown;
}

/** How long one platform call may take (ms) before the visitor is told it failed. */
const CALL_TIMEOUT_MS = 10_000;

async function call(env: IntegrationEnv, b: IntegrationBehaviour, method: 'GET' | 'POST', path: string, payload?: { contentType: string; body: string }): Promise<PlatformAnswer> {
  const url = new URL(`${env.affiliateUrl}${path}`);
  if (b.keylessProbe) await nodeExchange(url, { timeoutMs: CALL_TIMEOUT_MS }).catch(() => undefined);
  const headers: Record<string, string> = { ...b.platformHeaders(env.apiKey), ...(payload ? { 'content-type': payload.contentType } : {}) };
  // node:http (src/targets/node-exchange.ts): the integration is a process started per case
  const res = await nodeExchange(url, { method, headers, ...(payload ? { body: payload.body } : {}), timeoutMs: CALL_TIMEOUT_MS });
  let body: unknown;
  try {
    body = JSON.parse(res.text) as unknown;
  } catch {
    body = undefined;
  }
  return { status: res.status, body };
}

/** E1: registers the lead, server-side, with the key (the browser never sees either). */
export function registerLead(env: IntegrationEnv, b: IntegrationBehaviour, lead: LeadFields): Promise<PlatformAnswer> {
  return call(env, b, 'POST', PLATFORM_PATHS.registerLead, b.registration(lead));
}

/** E2: the autologin target of a registered lead. */
export function autologinTargetOf(env: IntegrationEnv, b: IntegrationBehaviour, leadRequestId: string): Promise<PlatformAnswer> {
  return call(env, b, 'GET', `${PLATFORM_PATHS.autologin}?${new URLSearchParams({ leadRequestID: leadRequestId }).toString()}`);
}
