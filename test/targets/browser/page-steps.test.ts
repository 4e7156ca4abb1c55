import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { resolveDeep } from '../../../src/engine/expressions.js';
import { CHROMIUM_HINT, findChromium } from '../../../src/targets/browser/find-chromium.js';
import { parseCapture, urlWithQuery, type PageStep } from '../../../src/targets/browser/page-steps.js';
import { PageStepFailure, runPageSteps } from '../../../src/targets/browser/run-page-steps.js';
import type { Listening } from '../../../src/targets/loopback-server.js';
import { chromiumPages } from '../../helpers/chromium-pages.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

describe('page step vocabulary', () => {
  it('reads every capture source and refuses what names none', () => {
    expect(parseCapture('url')).toEqual({ from: 'url' });
    expect(parseCapture('url:query.code')).toEqual({ from: 'url-query', name: 'code' });
    expect(parseCapture('url:fragment.access_token')).toEqual({ from: 'url-fragment', name: 'access_token' });
    expect(parseCapture('text:main h1')).toEqual({ from: 'text', selector: 'main h1' });
    expect(parseCapture('attr:main[data-page]@data-outcome')).toEqual({ from: 'attr', selector: 'main[data-page]', attribute: 'data-outcome' });
    expect(parseCapture('exists:form#approve')).toEqual({ from: 'exists', selector: 'form#approve' });
    expect(parseCapture('code')).toBeUndefined();
    expect(parseCapture('url:query')).toBeUndefined();
  });

  it('builds a URL from a query object, leaving null values out', () => {
    expect(urlWithQuery('http://127.0.0.1:1/a?x=1', { client_id: 'c 1', state: null, scope: 'repo user', n: 3 })).toBe('http://127.0.0.1:1/a?x=1&client_id=c+1&scope=repo+user&n=3');
  });
});

/**
 * How long the site takes to answer the slow form's post (ms). The step timeout it is tried with
 * is 600 ms shorter: Playwright gives up on the click's navigation first, and the settle wait
 * after it gets a whole step timeout more, of which the answer needs only those 600 ms.
 */
const SLOW_ANSWER_MS = 4600;

/**
 * A sign-in page with a session cookie and a hidden anti-forgery token, a consent page, and a
 * decision that redirects to a callback on a port nothing listens on.
 */
function site(callback: string): Server {
  const sessions = new Map<string, { csrf: string; user?: string }>();
  const cookieOf = (req: IncomingMessage): string | undefined => /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  const body = (req: IncomingMessage): Promise<URLSearchParams> =>
    new Promise((resolve) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => resolve(new URLSearchParams(text)));
    });
  const html = (title: string, inner: string): string => `<!doctype html><html><head><title>${title}</title></head><body><main data-page="${title}">${inner}</main></body></html>`;
  return createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const sid = cookieOf(req);
      const session = sid ? sessions.get(sid) : undefined;
      if (url.pathname === '/login' && req.method === 'GET') {
        const id = randomBytes(8).toString('hex');
        const csrf = randomBytes(8).toString('hex');
        sessions.set(id, { csrf });
        res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': `sid=${id}; Path=/; HttpOnly` });
        res.end(html('sign-in', `<form id="sign-in" method="post" action="/login"><input type="hidden" name="csrf" value="${csrf}"><input name="login"><input type="password" name="password"><button type="submit">Sign in</button></form>`));
        return;
      }
      if (url.pathname === '/login' && req.method === 'POST') {
        const form = await body(req);
        if (!session || form.get('csrf') !== session.csrf || form.get('password') !== 'pw-1') {
          res.writeHead(403, { 'content-type': 'text/html' });
          res.end(html('refused', `<p id="why">${session ? 'bad token or password' : 'no session'}</p>`));
          return;
        }
        session.user = form.get('login') ?? '';
        res.writeHead(303, { location: '/consent?client=app-1' });
        res.end();
        return;
      }
      if (url.pathname === '/consent') {
        if (!session?.user) {
          res.writeHead(303, { location: '/login' });
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(html('consent', `<p id="who" data-user="${session.user}">Hello ${session.user}</p><form id="approve" method="post" action="/decide"><input type="hidden" name="csrf" value="${session.csrf}"><label><input type="checkbox" name="remember" id="remember"> remember</label><button type="submit">Authorize</button></form>`));
        return;
      }
      if (url.pathname === '/decide' && req.method === 'POST') {
        const form = await body(req);
        if (!session?.user || form.get('csrf') !== session.csrf) {
          res.writeHead(400, { 'content-type': 'text/html' });
          res.end(html('stale', '<p>stale</p>'));
          return;
        }
        res.writeHead(302, { location: `${callback}?code=c-${session.user}&state=${form.get('remember') === 'on' ? 'kept' : 'once'}` });
        res.end();
        return;
      }
      if (url.pathname === '/bounce') {
        res.writeHead(302, { location: url.searchParams.has('fragment') ? `${callback}#access_token=f-1&state=s` : `${callback}?code=bounced` });
        res.end();
        return;
      }
      if (url.pathname === '/slow' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(html('slow', `<form id="slow" method="post" action="/slow"><button type="submit">Send</button></form>`));
        return;
      }
      if (url.pathname === '/slow' && req.method === 'POST') {
        // the post is answered after longer than a step may take: the click was made all the same
        await body(req);
        await new Promise((r) => setTimeout(r, SLOW_ANSWER_MS));
        res.writeHead(303, { location: '/slow-done' });
        res.end();
        return;
      }
      if (url.pathname === '/later') {
        // the page moves on by itself a moment after it loaded
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(html('later', `<script>setTimeout(() => { location.href = '/done#access_token=t-9&token_type=bearer'; }, 300);</script>`));
        return;
      }
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(html('missing', ''));
    })();
  });
}

describe.skipIf(chromium.skip)('page steps in Chromium', () => {
  // set by the hooks chromiumPages registers
  let server: Listening, browser: Browser, context: BrowserContext, page: Page, callback: string;
  chromiumPages(site, (made) => ({ server, browser, context, page, callback } = made));

  const run = (steps: PageStep[], vars: Record<string, unknown> = {}, stepTimeoutMs = 10_000): Promise<Record<string, unknown>> =>
    runPageSteps(page, steps, { base: server.url, ...vars }, { resolve: (v, scope) => resolveDeep(v, { vars: scope }), stepTimeoutMs });

  const signIn: PageStep[] = [
    { goto: '${base}/login' },
    { fill: { '#sign-in [name=login]': '${login}', '#sign-in [name=password]': '${password}' } },
    { click: '#sign-in button[type=submit]' },
  ];

  it('signs in through a form with a cookie and a hidden token, consents, and captures the code from a callback nobody answers', async () => {
    const got = await run(
      [
        ...signIn,
        { match: '/consent\\?client=app-1$' },
        { capture: { greeting: 'text:#who', user: 'attr:#who@data-user', consent_status: 'status' } },
        { check: '#remember', when: { selector: 'form#approve' } },
        { click: 'form#approve button' },
        { capture: { location: 'url', code: 'url:query.code', state: 'url:query.state', path: 'url:path', status: 'status', form_left: 'exists:form#approve', heading: 'text:main' } },
      ],
      { login: 'ana', password: 'pw-1' },
    );
    expect(got).toEqual({
      greeting: 'Hello ana',
      user: 'ana',
      consent_status: 200,
      location: `${callback}?code=c-ana&state=kept`,
      code: 'c-ana',
      state: 'kept',
      path: '/cb',
      status: null,
      form_left: false,
      heading: null,
    });
  });

  it('is refused without the cookie the sign-in page set (a fresh context each time)', async () => {
    const other = await browser.newContext();
    try {
      const p = await other.newPage();
      // a form posted from another context carries no cookie: the site refuses it
      await p.setContent(`<form method="post" action="${server.url}/login"><input name="csrf" value="x"><input name="password" value="pw-1"><button>go</button></form>`);
      const got = await runPageSteps(p, [{ click: 'button' }, { capture: { why: 'text:#why', status: 'status' } }], {}, { resolve: (v) => v, stepTimeoutMs: 10_000 });
      expect(got).toEqual({ why: 'no session', status: 403 });
    } finally {
      await other.close();
    }
  });

  it('passes over steps whose guard does not hold, and runs those whose guard does', async () => {
    const got = await run([
      { goto: { url: '${base}/login', query: { next: '/consent', unused: null } } },
      { set: { seen: 'no' } },
      { set: { seen: 'consent' }, when: { selector: 'form#approve' } },
      { set: { page: 'sign-in' }, when: { selector: 'form#sign-in', absent: 'form#approve', url: '/login\\?next=%2Fconsent$' } },
      { set: { wrong: true }, when: { url: '/elsewhere' } },
      { capture: { where: 'url' } },
    ]);
    expect(got).toEqual({ seen: 'no', page: 'sign-in', where: `${server.url}/login?next=%2Fconsent` });
  });

  it('waits for a page that moves on by itself and captures from the fragment', async () => {
    const got = await run([{ goto: '${base}/later' }, { waitFor: { url: '#access_token=' } }, { capture: { token: 'url:fragment.access_token', type: 'url:fragment.token_type', code: 'url:query.code' } }]);
    expect(got).toEqual({ token: 't-9', type: 'bearer', code: null });
  });

  it('names the failing step: a URL that does not match', async () => {
    const err = await run([...signIn, { match: '/elsewhere' }], { login: 'ana', password: 'wrong' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PageStepFailure);
    expect((err as PageStepFailure).stepIndex).toBe(3);
    expect((err as PageStepFailure).code).toBe('SG_TARGET_PROTOCOL');
    expect((err as Error).message).toMatch(/^step 4 \(match "\/elsewhere"\) failed: the browser is at http:\/\/127\.0\.0\.1:\d+\/login, which does not match \/elsewhere$/);
  });

  it('names the failing step: an element that is not on the page, within the step timeout', async () => {
    const started = Date.now();
    const err = await run([{ goto: '${base}/login' }, { click: '#no-such-button' }], {}, 1500).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(8000);
    expect((err as PageStepFailure).code).toBe('SG_TARGET_PROTOCOL');
    expect((err as Error).message).toMatch(/^step 2 \(click "#no-such-button"\) failed: no element matching "#no-such-button" could be used within 1500 ms on http:\/\/127\.0\.0\.1:\d+\/login$/);
  });

  it('a click whose navigation outlasts the step timeout was made: the steps after it see where it led', async () => {
    const got = await run([{ goto: '${base}/slow' }, { click: 'form#slow button' }, { capture: { path: 'url:path', page: 'attr:main@data-page' } }], {}, SLOW_ANSWER_MS - 600);
    expect(got).toEqual({ path: '/slow-done', page: 'missing' });
  });

  it('names the failing step: a waitFor that never comes true', async () => {
    const err = await run([{ goto: '${base}/login' }, { waitFor: { url: '/never', timeoutMs: 300 } }]).catch((e: unknown) => e);
    expect((err as PageStepFailure).code).toBe('SG_TARGET_TIMEOUT');
    expect((err as Error).message).toMatch(/did not reach a URL matching \/never within 300 ms; it is at http:\/\/127\.0\.0\.1:\d+\/login/);
  });

  it('an address that does not answer at all is an unreachable target, not a landing', async () => {
    const err = await run([{ goto: callback }]).catch((e: unknown) => e);
    expect((err as PageStepFailure).code).toBe('SG_TARGET_UNREACHABLE');
    expect((err as Error).message).toContain(`cannot open ${callback}: net::ERR_CONNECTION_REFUSED`);
  });

  it('a redirect straight from goto to an address that does not answer is a landing', async () => {
    const got = await run([{ goto: '${base}/bounce' }, { capture: { code: 'url:query.code', where: 'url' } }]);
    expect(got).toEqual({ code: 'bounced', where: `${callback}?code=bounced` });
    // a browser never sends the fragment: it is read from the redirect that sent the browser there
    const implicit = await run([{ goto: '${base}/bounce?fragment=1' }, { capture: { token: 'url:fragment.access_token', state: 'url:fragment.state' } }]);
    expect(implicit).toEqual({ token: 'f-1', state: 's' });
  });

  it('opens the next address on a page the steps before left at one that did not answer', async () => {
    // Chromium shows its error page for the refused callback a moment after the steps ended:
    // steps that go on on the same page at once still land where they go (each round a chance
    // for that page to come in the middle of the next navigation)
    for (let i = 0; i < 8; i++) {
      expect(await run([{ goto: '${base}/bounce' }, { capture: { code: 'url:query.code' } }])).toEqual({ code: 'bounced' });
      expect(await run([{ goto: '${base}/login' }, { capture: { path: 'url:path', page: 'attr:main@data-page' } }])).toEqual({ path: '/login', page: 'sign-in' });
    }
  });

  it('keeps the cookie of the sign-in for the steps after it (one context per run of steps)', async () => {
    await run(signIn, { login: 'bo', password: 'pw-1' });
    const got = await run([{ goto: '${base}/consent' }, { click: 'form#approve button' }, { capture: { code: 'url:query.code', state: 'url:query.state' } }]);
    expect(got).toEqual({ code: 'c-bo', state: 'once' });
  });

  it('refuses a bad regular expression and a bad capture source as configuration errors', async () => {
    const bad = await run([{ goto: '${base}/login' }, { match: '(' }]).catch((e: unknown) => e);
    expect((bad as PageStepFailure).code).toBe('SG_CONFIG');
    const source = await run([{ goto: '${base}/login' }, { capture: { x: 'cookie:sid' } }]).catch((e: unknown) => e);
    expect((source as PageStepFailure).code).toBe('SG_CONFIG');
    expect((source as Error).message).toContain('capture x: "cookie:sid" names nothing to read');
  });
});
