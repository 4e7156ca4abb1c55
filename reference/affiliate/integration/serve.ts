import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { IntegrationBehaviour, LeadFields } from './behaviour.js';
import { INTEGRATION_PAGES, SIGNUP_FIELDS, type IntegrationEnv } from './contract.js';
import { page, escapeHtml } from './html.js';
import { problemPage, signupPage } from './pages.js';
import { autologinTargetOf, registerLead, type PlatformAnswer } from './platform.js';
import { autologinDetails } from './target.js';

/** The largest form body read from a visitor (bytes): a sign-up form is small. */
const FORM_CAP = 64 * 1024;

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'cache-control': 'no-store' });
  res.end();
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= FORM_CAP) chunks.push(c);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

/** The visitor's address as the lead's `ip` (E, Lead request), IPv4-mapped IPv6 written as IPv4. */
function visitorIp(req: IncomingMessage): string {
  const a = req.socket.remoteAddress ?? '127.0.0.1';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}

function redirectUrl(answer: PlatformAnswer): string | undefined {
  const b = answer.body as { details?: { redirect?: { url?: unknown } } } | undefined;
  const url = b?.details?.redirect?.url;
  return typeof url === 'string' && /^https?:\/\//.test(url) ? url : undefined;
}

async function signup(env: IntegrationEnv, b: IntegrationBehaviour, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const form = await readForm(req);
  const values: Record<string, string> = {};
  for (const name of SIGNUP_FIELDS) values[name] = form.get(name) ?? '';
  const lead: LeadFields = { ...values, ip: visitorIp(req) };
  const answer = await registerLead(env, b, lead);
  if (b.succeeded(answer.status)) {
    const to = redirectUrl(answer);
    if (to && b.redirectAfterSignup) return redirect(res, to);
    return send(res, 200, page('Welcome', `<h1>Welcome, ${escapeHtml(values['firstName'] ?? '')}</h1>\n<p>Your registration is complete.</p>`));
  }
  send(res, 422, signupPage({ error: b.errorText(answer.body, answer.status), values }));
}

async function autologin(env: IntegrationEnv, b: IntegrationBehaviour, url: URL, res: ServerResponse): Promise<void> {
  const id = url.searchParams.get('leadRequestID');
  if (!id) return send(res, 400, problemPage('No lead', 'The link has no leadRequestID.'));
  const answer = await autologinTargetOf(env, b, id);
  const details = b.succeeded(answer.status) ? autologinDetails(answer.body) : undefined;
  if (!details) return send(res, 502, problemPage('Login unavailable', b.errorText(answer.body, answer.status)));
  const step = b.browserStep(details);
  if ('redirect' in step) return redirect(res, step.redirect);
  send(res, 200, page('Signing you in', step.html));
}

/** The integration's web server: the sign-up page and the autologin hand-over, on 127.0.0.1:$PORT. */
export function integrationServer(env: IntegrationEnv, b: IntegrationBehaviour): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://integration.invalid');
    const handled = (async () => {
      if (url.pathname === INTEGRATION_PAGES.signup && req.method === 'GET') return send(res, 200, signupPage({ extras: b.signupExtras({ apiKey: env.apiKey, affiliateUrl: env.affiliateUrl }) }));
      if (url.pathname === INTEGRATION_PAGES.signup && req.method === 'POST') return signup(env, b, req, res);
      if (url.pathname === INTEGRATION_PAGES.autologin && req.method === 'GET') return autologin(env, b, url, res);
      send(res, 404, problemPage('Not found', `Nothing at ${url.pathname}.`));
    })();
    handled.catch((e: unknown) => {
      if (!res.headersSent) send(res, 502, problemPage('The platform did not answer', e instanceof Error ? e.message : String(e)));
      else res.end();
    });
  });
}
