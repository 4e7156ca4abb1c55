import { SpecgateError } from '../../../src/errors.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';

/** Shared plumbing of the ctx-auth server-side checks: variables, URLs, and the words of skips and errors. */

/** The protocol revision this suite judges (spec 000, C, Versioning 2). */
export const PROTOCOL_REVISION = '2025-03-26';

/** RFC 8414 section 3: where the metadata document sits below the authorization base URL. */
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

/** A JSON object of an answer. */
export type Json = Record<string, unknown>;

/** A value as text: strings as they are, numbers as digits, anything else empty. */
export function text(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';
}

/** The body as a JSON object, or undefined when it is anything else. */
export function objectBody(body: unknown): Json | undefined {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Json) : undefined;
}

/** A field of an object answer (undefined for anything else). */
export function field(body: unknown, name: string): unknown {
  return objectBody(body)?.[name];
}

/** A variable holding text, or undefined when it holds nothing. */
export function optionalText(ctx: CheckContext, name: string): string | undefined {
  const v = text(ctx.vars[name]);
  return v === '' ? undefined : v;
}

/** A target variable the check cannot do without; missing, it is the profile's to fix. */
export function textVar(ctx: CheckContext, name: string): string {
  const v = optionalText(ctx, name);
  if (v === undefined) throw new SpecgateError('SG_CONFIG', `case ${ctx.caseId} needs the variable ${name}: set vars.${name} in the target profile`);
  return v;
}

/**
 * A variable an earlier check of the case sets (`ctx-auth.discover`, `ctx-auth.client`); its
 * absence is a mistake in the case file, not in the target.
 */
export function stepVar(ctx: CheckContext, name: string, setBy: string): string {
  const v = optionalText(ctx, name);
  if (v === undefined) throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: ${name} is not set; run ${setBy} earlier in the case`);
  return v;
}

/**
 * An endpoint `ctx-auth.discover` set. Missing after a metadata document was found, the
 * document names none: the case is blocked by the rule on the document's fields
 * (CTX-SRV-METADATA-SHAPE for the authorization and token endpoints, which RFC 8414 section 2
 * requires; CTX-SRV-DCR for the registration endpoint, which only a server offering
 * registration advertises). Missing otherwise, the case file forgot the discovery.
 */
export function discoveredEndpoint(ctx: CheckContext, name: string): string {
  const v = optionalText(ctx, name);
  if (v !== undefined) return v;
  if (ctx.vars['has_metadata'] === true) ctx.blocked(name === 'registration_endpoint' ? 'CTX-SRV-DCR' : 'CTX-SRV-METADATA-SHAPE', `the server's metadata document names no ${name} (a string), so the case has no endpoint to send its request to`);
  return stepVar(ctx, name, 'ctx-auth.discover');
}

/**
 * The authorization base URL: the server URL with its path discarded (spec 000, C, Endpoints 1),
 * so that the authorization endpoints sit at the root of the host.
 */
export function authorizationBase(serverUrl: string): string {
  let url: URL;
  try {
    url = new URL(serverUrl);
  } catch {
    throw new SpecgateError('SG_CONFIG', `vars.server_url is "${serverUrl}", which is not an absolute URL; set it to the server's URL (e.g. https://host/ctx) in the target profile`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SpecgateError('SG_CONFIG', `vars.server_url is "${serverUrl}", which is not an http(s) URL; set it to the server's URL in the target profile`);
  return url.origin;
}

/** Whether a URL's host is a loopback name: localhost, 127.0.0.0/8, or [::1]. */
export function loopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The absolute URL, or undefined when the text is not one. */
export function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * The target answered something the case cannot go on from: its requirements cannot be judged
 * (the case errors, naming what was missing), which is never a pass.
 */
export function cannotJudge(message: string): SpecgateError {
  return new SpecgateError('SG_TARGET_PROTOCOL', `cannot judge: ${message}`);
}

/** `resource_body`, parsed when a profile gives it as JSON text; the JSON-RPC `initialize` of this revision when absent. */
export function resourceJson(ctx: CheckContext): unknown {
  const raw = ctx.vars['resource_body'];
  if (raw === undefined || raw === null || raw === '') return defaultResourceBody(optionalText(ctx, 'protocol_version') ?? PROTOCOL_REVISION);
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch (e) {
    throw new SpecgateError('SG_CONFIG', `vars.resource_body is not JSON (${(e as Error).message}); set it to the JSON body of an authorized request in the target profile`);
  }
}

/** A JSON-RPC `initialize` request of the given protocol revision: the first call of a session. */
export function defaultResourceBody(version: string): Json {
  return { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'specgate', version: '0.1.0' } } };
}
