import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { chromium as launcher, type Browser, type CDPSession, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_HINT, DEBIAN_CHROMIUM, findChromium } from '../../../src/targets/browser/find-chromium.js';
import { makeChromiumHome } from '../../../src/targets/browser/chromium-home.js';
import { PROCESS_MODEL_ARGS, launchBrowser, launchOptions } from '../../../src/targets/browser/launch-browser.js';
import { SEATS, closeIdleBrowser, holdBrowser, IDLE_CLOSE_MS, sharedBrowserOpen, warmBrowser, withBrowser, type BrowserSession } from '../../../src/targets/browser/shared-browser.js';
import { visitPage } from '../../../src/targets/browser/page-visit.js';
import { listenOnLoopback, type Listening } from '../../../src/targets/loopback-server.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);
/** Debian's whole browser, apart from the headless shell specgate takes first: the process model's switches are for it. */
const wholeBrowser = requirePeer('chromium (the whole browser)', existsSync(DEBIAN_CHROMIUM), 'apt-get install chromium');
declarePeer(wholeBrowser);

/** How long the slow form's post is answered after (ms); the click's own timeout is shorter. */
const SLOW_POST_MS = 6000;

/** How many times the browser fetched /cached (an answer it may keep for an hour). */
let cachedFetches = 0;

/** A page with a form, a script that sends a custom header, and a redirect to a fragment. */
function site(): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/cached') {
      cachedFetches++;
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=3600' });
      res.end('kept');
      return;
    }
    if (url.pathname === '/blank') {
      res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'from-header=1; Max-Age=3600' });
      res.end('<!doctype html><p>blank</p>');
      return;
    }
    if (url.pathname === '/form') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><form method="post" action="/posted"><input name="who"><button type="submit">Go</button></form>
<script>fetch('/api', { headers: { 'X-Secret-Marker': 'm1' } });</script>`);
      return;
    }
    if (url.pathname === '/in-place') {
      // answers a click in the page itself, after a while: no document loads after the click
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><p id="out"></p><button onclick="setTimeout(() => { document.getElementById('out').textContent = 'Refused & <shown>'; }, 300)">Go</button>`);
      return;
    }
    if (url.pathname === '/leave') {
      // a link to another origin (another port), followed by a click: a navigation the page starts
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><a id="away" href="${url.searchParams.get('to') ?? '/'}">away</a>`);
      return;
    }
    if (url.pathname === '/api') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"leak":"needle-42"}');
      return;
    }
    if (url.pathname === '/slow-form') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><form method="post" action="/slow-posted"><button type="submit">Go</button></form>`);
      return;
    }
    if (url.pathname === '/slow-posted') {
      // answered after the click's timeout: the click waits for the navigation it started
      setTimeout(() => {
        res.writeHead(303, { location: '/landing?got=slow' });
        res.end();
      }, SLOW_POST_MS);
      return;
    }
    if (url.pathname === '/posted') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        res.writeHead(303, { location: `/landing?got=${encodeURIComponent(body)}#frag-1` });
        res.end();
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><p>landed &amp; ${url.searchParams.get('got') ?? ''}</p>`);
  });
}

describe.skipIf(chromium.skip)('driving a page in headless Chromium', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listenOnLoopback(site());
  });
  afterAll(async () => {
    await server.stop();
  });

  it('records requests, headers, post data, answer bodies and the final URL with its fragment', async () => {
    const visit = await withBrowser(new AbortController().signal, (b) =>
      visitPage(b, `${server.url}/form`, {
        act: async (page) => {
          await page.fill('input[name=who]', 'a b&c');
          await page.click('button[type=submit]');
        },
        arriveAt: (u) => u.pathname === '/landing',
        timeoutMs: 20_000,
      }),
    );
    expect(visit.problem).toBeUndefined();
    expect(visit.arrived).toBe(true);
    expect(visit.finalUrl).toBe(`${server.url}/landing?got=${encodeURIComponent('who=a+b%26c')}#frag-1`);
    expect(visit.text).toContain('landed & who=a+b%26c');
    const api = visit.requests.find((r) => r.url.endsWith('/api'));
    expect(api?.headers['x-secret-marker']).toBe('m1');
    const post = visit.requests.find((r) => r.method === 'POST');
    expect(post).toMatchObject({ url: `${server.url}/posted`, postData: 'who=a+b%26c', navigation: true });
    expect(post?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(visit.responses.find((r) => r.url.endsWith('/api'))?.body).toBe('{"leak":"needle-42"}');
    expect(visit.responses.some((r) => r.status === 303)).toBe(true);
  }, 60_000);

  it('a click whose navigation outlasts its timeout was made: the visit waits for the arrival and reports no problem', async () => {
    const visit = await withBrowser(new AbortController().signal, (b) =>
      visitPage(b, `${server.url}/slow-form`, {
        // 3 s to make the click even on a loaded machine, and still 3 s short of the answer's arrival
        act: (page) => page.locator('button[type=submit]').click({ timeout: SLOW_POST_MS - 3000 }),
        arriveAt: (u) => u.pathname === '/landing',
        timeoutMs: 20_000,
      }),
    );
    expect(visit.problem).toBeUndefined();
    expect(visit.arrived).toBe(true);
    expect(visit.finalUrl).toBe(`${server.url}/landing?got=slow`);
  }, 60_000);

  it('a page that answers in place ends the visit as soon as it shows the awaited text, not after a load that never comes', async () => {
    const started = Date.now();
    const visit = await withBrowser(new AbortController().signal, (b) =>
      visitPage(b, `${server.url}/in-place`, { act: (page, left) => page.locator('button').click({ timeout: left() }), showsText: 'Refused & <shown>', timeoutMs: 30_000 }),
    );
    expect(visit.problem).toBeUndefined();
    expect(visit.text).toContain('Refused & <shown>');
    // a wait for the load of a new document would have lasted 10 s
    expect(Date.now() - started).toBeLessThan(8000);
  }, 60_000);

  it('says what went wrong when the page cannot be driven, and still returns what it saw', async () => {
    const visit = await withBrowser(new AbortController().signal, (b) =>
      visitPage(b, `${server.url}/form`, { act: (page) => page.fill('input[name=missing]', 'x', { timeout: 500 }), timeoutMs: 10_000 }),
    );
    expect(visit.problem).toMatch(/^page\.fill: Timeout 500ms exceeded/);
    expect(visit.requests.some((r) => r.url.endsWith('/form'))).toBe(true);
  }, 60_000);

  it('closes the browser and removes its profile when the signal aborts', async () => {
    const abort = new AbortController();
    const browser = await launchBrowser(abort.signal);
    expect(existsSync(browser.profileDir)).toBe(true);
    const closed = new Promise<void>((resolve) => browser.context.once('close', () => resolve()));
    abort.abort();
    await closed;
    await browser.close();
    await expect(browser.context.newPage()).rejects.toThrow();
    expect(existsSync(browser.profileDir)).toBe(false);
  }, 60_000);

  it("closes the visit's context when the work inside fails", async () => {
    let kept: BrowserSession | undefined;
    await expect(
      withBrowser(new AbortController().signal, (b) => {
        kept = b;
        return Promise.reject(new Error('inner failure'));
      }),
    ).rejects.toThrow('inner failure');
    await expect(kept?.context.newPage()).rejects.toThrow();
  }, 60_000);

  it('visits share one browser, each in a context of its own: cookies set in one are not sent by another', async () => {
    const signal = new AbortController().signal;
    const seen: string[] = [];
    await Promise.all(
      ['one', 'two'].map((who) =>
        withBrowser(signal, async (b) => {
          seen.push(b.context.browser()?.version() ?? 'none');
          await b.context.addCookies([{ name: 'who', value: who, url: server.url }]);
          const cookies = await b.context.cookies(server.url);
          expect(cookies.map((c) => `${c.name}=${c.value}`)).toEqual([`who=${who}`]);
        }),
      ),
    );
    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toBe('none');
  }, 60_000);

  it('closing the idle browser at the end of a run leaves one a visit uses, and closes an unused one at once', async () => {
    const signal = new AbortController().signal;
    const used = await withBrowser(signal, async (b) => {
      const browser = b.context.browser();
      await closeIdleBrowser();
      expect(browser?.isConnected()).toBe(true);
      await b.context.newPage();
      return browser;
    });
    expect(used?.isConnected()).toBe(true);
    await closeIdleBrowser();
    expect(used?.isConnected()).toBe(false);
    // the next visit starts a browser afresh
    const next = await withBrowser(signal, async (b) => b.context.browser());
    expect(next).not.toBe(used);
    expect(next?.isConnected()).toBe(true);
  }, 60_000);

  it('a browser warmed up before a visit is the one the visit gets; a browser that cannot start is not warmed', async () => {
    await closeIdleBrowser();
    expect(() => warmBrowser({ ...process.env, SPECGATE_CHROMIUM: '/nonexistent/chromium' })).not.toThrow();
    warmBrowser();
    const first = await withBrowser(new AbortController().signal, async (b) => b.context.browser());
    const second = await withBrowser(new AbortController().signal, async (b) => b.context.browser());
    expect(first).toBe(second);
  }, 60_000);

  it("an aborted case closes its own context, not the browser another visit is using", async () => {
    const abort = new AbortController();
    let other: BrowserSession | undefined;
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    const holding = withBrowser(new AbortController().signal, async (b) => {
      other = b;
      await released;
      return (await b.context.newPage()).url();
    });
    await withBrowser(abort.signal, async (b) => {
      const page = await b.context.newPage();
      setTimeout(() => abort.abort(), 50);
      await expect(page.waitForTimeout(30_000)).rejects.toThrow(/closed/);
    });
    release();
    expect(await holding).toBe('about:blank');
    expect(other).toBeDefined();
  }, 60_000);
  it("a tab handed back is wiped: the next visit, in that same tab, finds none of the last visit's cookies, storage, cache, window name or history", async () => {
    const signal = new AbortController().signal;
    // what a page keeps: cookies (from a header and from script), local and session storage, IndexedDB, Cache Storage, the HTTP cache, its window's name
    const write = `(async () => {
      document.cookie = 'from-script=1; max-age=3600';
      localStorage.setItem('kept', '1');
      sessionStorage.setItem('kept', '1');
      window.name = 'kept';
      await new Promise((resolve, reject) => { const o = indexedDB.open('kept', 1); o.onupgradeneeded = () => o.result.createObjectStore('s'); o.onsuccess = () => { o.result.close(); resolve(); }; o.onerror = reject; });
      await (await caches.open('kept')).put('/k', new Response('v'));
      return (await fetch('/cached')).text();
    })()`;
    const read = `(async () => ({
      cookie: document.cookie,
      local: localStorage.getItem('kept'),
      session: sessionStorage.getItem('kept'),
      name: window.name,
      databases: (await indexedDB.databases()).map((d) => d.name),
      caches: await caches.keys(),
      cached: await (await fetch('/cached')).text(),
    }))()`;
    cachedFetches = 0;
    const first = await withBrowser(signal, async (b) => {
      await b.page.goto(`${server.url}/blank`);
      expect(await b.page.evaluate(write)).toBe('kept');
      // as it was written: the same read in the same visit sees all of it
      await b.page.goto(`${server.url}/blank`);
      expect(await b.page.evaluate(read)).toMatchObject({ local: '1', session: '1', name: 'kept', databases: ['kept'], caches: ['kept'] });
      return b.page;
    });
    expect(cachedFetches).toBe(1);
    const { seen, back } = await withBrowser(signal, async (b) => {
      // the same tab: what keeps the visits apart is the wipe, not a context of its own
      expect(b.page).toBe(first);
      expect(b.page.url()).toBe('about:blank');
      await b.page.goto(`${server.url}/blank`);
      const seen: unknown = await b.page.evaluate(read);
      await b.page.goBack().catch(() => null);
      return { seen, back: b.page.url() };
    });
    expect(seen).toEqual({ cookie: 'from-header=1', local: null, session: null, name: '', databases: [], caches: [], cached: 'kept' });
    // the HTTP cache was emptied: the answer was fetched again
    expect(cachedFetches).toBe(2);
    // the history has nothing of the last visit to go back to
    expect(back).not.toContain('/blank');
  }, 60_000);

  it(`visits at once share at most ${SEATS} tabs: the others wait for one to be handed back`, async () => {
    const signal = new AbortController().signal;
    const contexts = new Set<unknown>();
    await Promise.all(
      Array.from({ length: SEATS + 2 }, () =>
        withBrowser(signal, async (b) => {
          contexts.add(b.context);
          await b.page.goto(`${server.url}/blank`);
        }),
      ),
    );
    expect(contexts.size).toBeLessThanOrEqual(SEATS);
  }, 60_000);

  it('a browser held for a run stays up past the idle time with a tab ready, and closes once let go', async () => {
    await closeIdleBrowser();
    const letGo = holdBrowser();
    expect(sharedBrowserOpen()).toBe(true);
    await new Promise((r) => setTimeout(r, IDLE_CLOSE_MS + 1000));
    expect(sharedBrowserOpen()).toBe(true);
    const browser = await withBrowser(new AbortController().signal, async (b) => b.context.browser());
    // still held: the end of a run's close leaves it
    await closeIdleBrowser();
    expect(browser?.isConnected()).toBe(true);
    letGo();
    await closeIdleBrowser();
    expect(browser?.isConnected()).toBe(false);
    expect(() => holdBrowser({ ...process.env, SPECGATE_CHROMIUM: '/nonexistent/chromium' })()).not.toThrow();
  }, 60_000);

  describe('the process model: tabs kept for the next visit keep their renderers', () => {
    let other: Listening;
    beforeAll(async () => {
      other = await listenOnLoopback(site());
    });
    afterAll(async () => {
      await other.stop();
    });

    /** The renderer processes a browser runs now, by their process IDs. */
    const renderersOf = async (cdp: CDPSession): Promise<number[]> => (await cdp.send('SystemInfo.getProcessInfo')).processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);

    /**
     * One visit as the integrations' go: a page, a link it follows to another origin (another
     * port), then blank; `seen` is told the renderers after each navigation, so that one started
     * for a page and gone by the visit's end is counted too.
     */
    const crossOrigin = async (page: Page, seen: () => Promise<void>): Promise<void> => {
      await page.goto(`${server.url}/leave?to=${encodeURIComponent(`${other.url}/blank`)}`);
      await seen();
      await page.click('#away');
      await page.waitForURL(`${other.url}/blank`);
      await seen();
      await page.goto('about:blank');
      await seen();
    };

    /**
     * Runs five rounds of `round`, each given `seen` to call after every navigation (it adds the
     * renderers the browser runs then, by process ID, asked through `cdp`); how many renderers
     * were seen so far, after each round.
     */
    const renderersByRound = async (cdp: CDPSession, round: (seen: () => Promise<void>) => Promise<unknown>): Promise<number[]> => {
      const ids = new Set<number>();
      const seen = async (): Promise<void> => {
        for (const id of await renderersOf(cdp)) ids.add(id);
      };
      const counts: number[] = [];
      for (let r = 0; r < 5; r++) {
        await round(seen);
        counts.push(ids.size);
      }
      return counts;
    };

    it(`visits in the shared browser, ${SEATS} at once (one a seat) round after round across origins, start no renderer after the first round`, async () => {
      // held, so that the browser does not close for being idle between two rounds
      const letGo = holdBrowser();
      const signal = new AbortController().signal;
      const session = await withBrowser(signal, async (b) => (b.context.browser() as Browser).newBrowserCDPSession());
      try {
        const counts = await renderersByRound(session, (seen) => Promise.all(Array.from({ length: SEATS }, () => withBrowser(signal, (b) => crossOrigin(b.page, seen)))));
        // contexts never share a renderer: one a seat at the least
        expect(counts[0]).toBeGreaterThanOrEqual(SEATS);
        expect(counts).toEqual(counts.map(() => counts[0]));
      } finally {
        await session.detach().catch(() => undefined);
        letGo();
      }
    }, 60_000);

    /**
     * Debian's whole browser, started as specgate starts a browser (launchOptions), `withSwitches`
     * or without the process model's: the renderers seen after each of five rounds of the same
     * visits, {@link SEATS} at once, one a context.
     */
    const wholeBrowserRounds = async (withSwitches: boolean): Promise<number[]> => {
      const home = makeChromiumHome();
      let browser: Browser | undefined;
      try {
        const options = launchOptions(DEBIAN_CHROMIUM, home);
        browser = await launcher.launch({ ...options, args: withSwitches ? options.args : options.args.filter((a) => !PROCESS_MODEL_ARGS.includes(a)) });
        home.started();
        const tabs = await Promise.all(Array.from({ length: SEATS }, async () => (await (browser as Browser).newContext()).newPage()));
        const session = await browser.newBrowserCDPSession();
        return await renderersByRound(session, (seen) => Promise.all(tabs.map((tab) => crossOrigin(tab, seen))));
      } finally {
        await browser?.close().catch(() => undefined);
        home.remove();
      }
    };

    it.skipIf(wholeBrowser.skip)("Debian's whole browser, started as specgate starts it, starts no renderer after the first round either", async () => {
      const counts = await wholeBrowserRounds(true);
      expect(counts[0]).toBeGreaterThanOrEqual(SEATS);
      expect(counts).toEqual(counts.map(() => counts[0]));
    }, 60_000);

    it.skipIf(wholeBrowser.skip)("control: the whole browser started the same way but with Chromium's default process model starts renderers round after round for the same visits", async () => {
      const counts = await wholeBrowserRounds(false);
      // at least one renderer more for every round after the first
      expect((counts[4] as number) - (counts[0] as number)).toBeGreaterThanOrEqual(4);
    }, 60_000);
  });
});
