import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { PLATFORM_PATHS, type IntegrationEnv } from './contract.js';
import type { IntegrationBehaviour, LeadFields } from './behaviour.js';

/** A platform answer: its status and its JSON body (undefined when the body is not JSON). */
export interface PlatformAnswer {
  status: number;
  body: unknown;
}

/** How long one platform call may stay silent (ms) before the visitor is told it failed. */
const CALL_TIMEOUT_MS = 10_000;

/**
 * One HTTP exchange with node's own client: an integration is a process started per case, and
 * node:http is already loaded with it, where an HTTP client library would be loaded by every one.
 */
function exchange(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(CALL_TIMEOUT_MS, () => req.destroy(new Error(`the platform did not answer ${method} ${url.pathname} within ${CALL_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function call(env: IntegrationEnv, b: IntegrationBehaviour, method: 'GET' | 'POST', path: string, payload?: { contentType: string; body: string }): Promise<PlatformAnswer> {
  const url = new URL(`${env.affiliateUrl}${path}`);
  if (b.keylessProbe) await exchange(url, 'GET', {}).catch(() => undefined);
  const headers: Record<string, string> = { ...b.platformHeaders(env.apiKey), ...(payload ? { 'content-type': payload.contentType } : {}) };
  const res = await exchange(url, method, headers, payload?.body);
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
