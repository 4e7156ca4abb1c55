import { createServer, type Server } from 'node:http';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveDeep } from '../../../src/engine/expressions.js';
import { CHROMIUM_HINT, findChromium } from '../../../src/targets/browser/find-chromium.js';
import { PageDom } from '../../../src/targets/browser/page-dom.js';
import { mayBePlainCss } from '../../../src/targets/browser/page-probe.js';
import type { PageStep } from '../../../src/targets/browser/page-steps.js';
import { PageStepFailure, runPageSteps } from '../../../src/targets/browser/run-page-steps.js';
import type { Listening } from '../../../src/targets/loopback-server.js';
import { chromiumPages } from '../../helpers/chromium-pages.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

describe('plain CSS', () => {
  it('takes CSS and leaves Playwright-only syntax to Playwright', () => {
    for (const css of ['form#sign-in', '#sign-in [name=login]', 'main[data-page="a=b"]', 'form#approve button', 'ul > li:nth-child(2)', 'a:not([href])', '*[id]', 'div:has(> p)']) expect(mayBePlainCss(css), css).toBe(true);
    for (const pw of ['text=Sign in', 'css=div', 'xpath=//a', '//a', '..', '"Sign in"', 'div >> text=Go', 'button:has-text("Go")', 'p:text("x")', 'a:visible', 'internal:role=button', 'div:near(p)', ':scope > a', ' ']) expect(mayBePlainCss(pw), pw).toBe(false);
  });
});

/** Pages with a form whose post redirects to `callback` (nothing listens there), some with a button not usable as it is. */
function site(callback: string): Server {
  const page = (body: string): string => `<!doctype html><html><body><main>${body}</main></body></html>`;
  const form = (button: string, extra = ''): string => page(`<form method="post" action="/post"><input name="q" id="q" value="preset">${button}</form>${extra}`);
  const pages: Record<string, string> = {
    '/plain': form('<button id="go" type="submit">Go</button>', '<button id="local" type="button" onclick="this.dataset.trusted = event.isTrusted">Local</button><p id="seen" hidden>hidden text</p>'),
    '/hidden': form('<button id="go" type="submit" style="visibility:hidden">Go</button>'),
    '/disabled': form('<button id="go" type="submit" disabled>Go</button>'),
    '/shift': form(
      '<button id="decoy" type="submit" style="position:fixed;inset:0;display:none" onclick="document.body.dataset.decoy = \'clicked\'">Decoy</button>',
      '<button id="go" type="button" onclick="this.dataset.clicks = Number(this.dataset.clicks ?? 0) + 1">Go</button>',
    ),
    '/covered': form('<button id="go" type="submit">Go</button>', '<div id="veil" style="position:fixed;inset:0;background:#fff"></div>'),
  };
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/post') {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        res.writeHead(302, { location: `${callback}?code=${encodeURIComponent(new URLSearchParams(text).get('q') ?? '')}` });
        res.end();
      });
      return;
    }
    const body = pages[url.pathname];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' });
    res.end(body ?? page('missing'));
  });
}

describe.skipIf(chromium.skip)('reads and actions without Playwright where the page allows, and with it elsewhere', () => {
  // set by the hooks chromiumPages registers
  let server: Listening, browser: Browser, context: BrowserContext, page: Page, callback: string;
  chromiumPages(site, (made) => ({ server, browser, context, page, callback } = made));
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const run = (steps: PageStep[], stepTimeoutMs = 10_000): Promise<Record<string, unknown>> =>
    runPageSteps(page, steps, { base: server.url }, { resolve: (v, scope) => resolveDeep(v, { vars: scope }), stepTimeoutMs });
  /** The Playwright calls a run made: none for what the fast path did. */
  const spy = (): { click: ReturnType<typeof vi.spyOn>; fill: ReturnType<typeof vi.spyOn>; locator: ReturnType<typeof vi.spyOn> } => ({
    click: vi.spyOn(page, 'click'),
    fill: vi.spyOn(page, 'fill'),
    locator: vi.spyOn(page, 'locator'),
  });

  /**
   * Runs `steps`, and once Playwright was asked to click (the fast path declined), runs `fix` in
   * the page: the click Playwright waits for then goes through.
   */
  const runFixedLater = async (steps: PageStep[], fix: string): Promise<{ got: Record<string, unknown>; clicks: number }> => {
    const click = vi.spyOn(page, 'click');
    const running = run(steps);
    await vi.waitFor(() => expect(click).toHaveBeenCalled(), { timeout: 8000, interval: 20 });
    await page.evaluate(fix);
    const got = await running;
    return { got, clicks: click.mock.calls.length };
  };

  it('fills, clicks through a redirect to an address that does not answer, and reads, all with plain CSS and no Playwright call', async () => {
    await run([{ goto: '${base}/plain' }]);
    const calls = spy();
    const got = await run([
      { capture: { here: 'exists:form #go', hidden: 'text:#seen', value: 'value:#q', type: 'attr:#go@type', none: 'attr:#nothing@x' } },
      { fill: { '#q': 'typed 1' } },
      { click: 'form #go' },
      { capture: { where: 'url', code: 'url:query.code', left: 'exists:form' } },
    ]);
    expect(got).toEqual({ here: true, hidden: 'hidden text', value: 'preset', type: 'submit', none: null, where: `${callback}?code=typed%201`, code: 'typed 1', left: false });
    expect(calls.click).not.toHaveBeenCalled();
    expect(calls.fill).not.toHaveBeenCalled();
    expect(calls.locator).not.toHaveBeenCalled();
  });

  it('clicks with a trusted event, and a click that starts no navigation ends at once', async () => {
    await run([{ goto: '${base}/plain' }]);
    const dom = await PageDom.of(page);
    expect(await dom?.click('#local', Date.now() + 5000)).toBe(true);
    expect(await run([{ capture: { trusted: 'attr:#local@data-trusted', where: 'url:path' } }])).toEqual({ trusted: 'true', where: '/plain' });
  });

  it('leaves a Playwright-only selector to Playwright, which reads and clicks it as before', async () => {
    await run([{ goto: '${base}/plain' }]);
    const dom = await PageDom.of(page);
    expect(await dom?.probe('text=Go', 'count', Date.now() + 5000)).toBeUndefined();
    const calls = spy();
    const got = await run([{ capture: { go: 'exists:text=Go', label: 'text:button >> nth=1' } }, { click: 'text=Go' }, { capture: { code: 'url:query.code' } }]);
    expect(got).toEqual({ go: true, label: 'Local', code: 'preset' });
    expect(calls.click).toHaveBeenCalledTimes(1);
  });

  it('leaves a hidden element to Playwright: it waits for it to show, or fails as before', async () => {
    await run([{ goto: '${base}/hidden' }]);
    expect(await (await PageDom.of(page))?.click('#go', Date.now() + 5000)).toBe(false);
    const err = await run([{ click: '#go' }], 1000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PageStepFailure);
    expect((err as Error).message).toMatch(/^step 1 \(click "#go"\) failed: no element matching "#go" could be used within 1000 ms on http:\/\/127\.0\.0\.1:\d+\/hidden$/);
    const later = await runFixedLater([{ click: '#go' }, { capture: { code: 'url:query.code' } }], `document.getElementById('go').style.visibility = 'visible'`);
    expect(later).toEqual({ got: { code: 'preset' }, clicks: 1 });
  });

  it('leaves a disabled button to Playwright, which clicks it once enabled', async () => {
    await run([{ goto: '${base}/disabled' }]);
    expect(await (await PageDom.of(page))?.click('#go', Date.now() + 5000)).toBe(false);
    const later = await runFixedLater([{ click: '#go' }, { capture: { code: 'url:query.code' } }], `document.getElementById('go').disabled = false`);
    expect(later).toEqual({ got: { code: 'preset' }, clicks: 1 });
  });

  it('leaves a button another element covers to Playwright, which clicks it once uncovered', async () => {
    await run([{ goto: '${base}/covered' }]);
    expect(await (await PageDom.of(page))?.click('#go', Date.now() + 5000)).toBe(false);
    const later = await runFixedLater([{ fill: { '#q': 'under' } }, { click: '#go' }, { capture: { code: 'url:query.code' } }], `document.getElementById('veil').remove()`);
    expect(later).toEqual({ got: { code: 'under' }, clicks: 1 });
  });

  it('waits through Playwright only for an element not there yet', async () => {
    await page.setContent('<p id="now">now</p>');
    const wait = vi.spyOn(page, 'waitForSelector');
    await run([{ waitFor: { selector: '#now' } }]);
    expect(wait).not.toHaveBeenCalled();
    const running = run([{ waitFor: { selector: '#later' } }, { capture: { later: 'exists:#later' } }]);
    await vi.waitFor(() => expect(wait).toHaveBeenCalled(), { timeout: 8000, interval: 20 });
    await page.evaluate(`document.body.append(Object.assign(document.createElement('p'), { id: 'later' }))`);
    expect(await running).toEqual({ later: true });
    expect(wait).toHaveBeenCalledTimes(1);
  });

  it('leaves a field it cannot type into to Playwright, with its own error', async () => {
    await page.setContent('<input id="n" type="number"><input id="ro" readonly>');
    const calls = spy();
    expect(await run([{ fill: { '#n': '42' } }, { capture: { n: 'value:#n' } }])).toEqual({ n: '42' });
    expect(calls.fill).toHaveBeenCalledTimes(1);
    const err = await run([{ fill: { '#ro': 'x' } }], 800).catch((e: unknown) => e);
    expect((err as PageStepFailure).code).toBe('SG_TARGET_PROTOCOL');
    expect((err as Error).message).toContain('no element matching "#ro" could be used within 800 ms');
  });

  it('cancels a click the page moved another element under between the probe and the press, and leaves it to Playwright', async () => {
    await run([{ goto: '${base}/shift' }]);
    const dom = await PageDom.of(page);
    const session = (dom as unknown as { session: CDPSession }).session;
    const send = session.send.bind(session) as (method: string, params?: unknown) => Promise<unknown>;
    let shifted = false;
    vi.spyOn(session, 'send').mockImplementation((async (method: string, params?: { type?: string }) => {
      if (method === 'Input.dispatchMouseEvent' && params?.type === 'mousePressed' && !shifted) {
        shifted = true;
        // a layout shift after the probe found the point: the decoy (a submit button) covers it a while
        await page.evaluate(`const d = document.getElementById('decoy'); d.style.display = 'block'; setTimeout(() => d.remove(), 300)`);
      }
      return send(method, params);
    }) as unknown as CDPSession['send']);
    const click = vi.spyOn(page, 'click');
    const got = await run([{ click: '#go' }, { capture: { clicks: 'attr:#go@data-clicks', decoy: 'attr:body@data-decoy', where: 'url:path' } }]);
    expect(shifted).toBe(true);
    expect(got).toEqual({ clicks: '1', decoy: null, where: '/shift' });
    expect(click).toHaveBeenCalledTimes(1);
  });

  it("reads and clicks through the page's own DOM, whatever the page's scripts replaced", async () => {
    await page.setContent(`<button id="go" type="button" onclick="this.dataset.clicked = 'yes'">Go</button><p id="t">true text</p><script>
      Document.prototype.querySelectorAll = function () { return document.createDocumentFragment().childNodes; };
      Element.prototype.getBoundingClientRect = function () { return new DOMRect(0, 0, 0, 0); };
      Element.prototype.getAttribute = function () { return 'lie'; };
      Object.defineProperty(HTMLElement.prototype, 'innerText', { get() { return 'lie'; } });
      window.getComputedStyle = () => ({ visibility: 'hidden' });
    </script>`);
    expect(await page.evaluate(`document.querySelectorAll('#go').length`)).toBe(0);
    const calls = spy();
    expect(await run([{ capture: { go: 'exists:#go', text: 'text:#t', type: 'attr:#go@type' } }])).toEqual({ go: true, text: 'true text', type: 'button' });
    expect(await (await PageDom.of(page))?.click('#go', Date.now() + 5000)).toBe(true);
    expect(await page.evaluate(`document.getElementById('go').dataset.clicked`)).toBe('yes');
    expect(calls.locator).not.toHaveBeenCalled();
  });

  it('fails a step on a page too busy to answer within the step time, with the step\'s own words', async () => {
    await page.setContent('<input id="q"><button id="go" type="button">Go</button>');
    expect(await PageDom.of(page)).toBeDefined();
    await page.evaluate(`setTimeout(() => { const end = Date.now() + 8000; while (Date.now() < end); }, 50)`);
    await new Promise((r) => setTimeout(r, 200));
    const failing = async (steps: PageStep[]): Promise<{ message: string; ms: number }> => {
      const t0 = Date.now();
      const err = await run(steps, 600).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PageStepFailure);
      return { message: (err as Error).message, ms: Date.now() - t0 };
    };
    const click = await failing([{ click: '#go' }]);
    expect(click.message).toMatch(/^step 1 \(click "#go"\) failed: no element matching "#go" could be used within 600 ms on /);
    const fill = await failing([{ fill: { '#q': 'x' } }]);
    expect(fill.message).toContain('failed: no element matching "#q" could be used within 600 ms on ');
    const wait = await failing([{ waitFor: { selector: '#go', timeoutMs: 600 } }]);
    expect(wait.message).toContain('failed: no element matching "#go" appeared within 600 ms on ');
    const read = await failing([{ capture: { label: 'text:#go' } }]);
    expect(read.message).toContain('failed: the page did not answer a read of "#go" within 600 ms (at ');
    for (const { ms } of [click, fill, wait, read]) expect(ms).toBeLessThan(1500);
  });
});
