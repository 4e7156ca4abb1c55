import type { Answer } from './answers.js';

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The advertiser's side as a plain page: where autologin targets and redirects point when no
 * other landing server is given. It answers any method with 200 and shows what arrived.
 */
export function landingPage(method: string, path: string, query: URLSearchParams): Answer {
  const items = [...query].map(([k, v]) => `<li>${escape(k)} = ${escape(v)}</li>`).join('');
  return { status: 200, html: `<!doctype html><html><head><title>Landing</title></head><body><h1>Welcome</h1><p>${escape(method)} ${escape(path)}</p><ul>${items}</ul></body></html>` };
}
