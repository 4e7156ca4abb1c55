import { createServer } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CasePages } from '../../../src/engine/agents/case-pages.js';
import { CaseStop } from '../../../src/engine/runtime/case-stop.js';
import { CHROMIUM_HINT, findChromium } from '../../../src/targets/browser/find-chromium.js';
import { launchChromium } from '../../../src/targets/browser/launch-browser.js';
import { listenOnLoopback, type Listening } from '../../../src/targets/loopback-server.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

/** /store leaves a cookie (by header and by script), local and session storage and a database; /look shows what it finds. */
const STORE = `<!doctype html><script>
document.cookie = 'script=yes; path=/';
localStorage.setItem('kept', 'local');
sessionStorage.setItem('kept', 'session');
indexedDB.open('kept', 1);
</script><p id="stored">stored</p>`;
const LOOK = `<!doctype html><p id="seen"></p><script>
indexedDB.databases().then((dbs) => {
  document.getElementById('seen').textContent = JSON.stringify({ cookie: document.cookie, local: localStorage.getItem('kept'), session: sessionStorage.getItem('kept'), databases: dbs.length });
});
</script>`;

interface Seen {
  cookie: string;
  local: string | null;
  session: string | null;
  databases: number;
}

describe.skipIf(chromium.skip)('the contexts of cases', () => {
  let server: Listening;
  let browser: Browser;
  const launched = (): Promise<Browser> => Promise.resolve(browser);

  beforeAll(async () => {
    server = await listenOnLoopback(
      createServer((req, res) => {
        const store = req.url === '/store';
        res.writeHead(200, { 'content-type': 'text/html', ...(store ? { 'set-cookie': 'header=yes; Path=/' } : {}) });
        res.end(store ? STORE : LOOK);
      }),
    );
    browser = await launchChromium(findChromium() ?? '');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const store = async (page: Page): Promise<BrowserContext> => {
    await page.goto(`${server.url}/store`);
    await page.waitForFunction("document.cookie.includes('script=yes') && sessionStorage.getItem('kept') === 'session'");
    return page.context();
  };
  const look = async (page: Page): Promise<{ context: BrowserContext; seen: Seen }> => {
    await page.goto(`${server.url}/look`);
    await page.waitForFunction("document.getElementById('seen').textContent !== ''");
    return { context: page.context(), seen: JSON.parse((await page.textContent('#seen')) ?? '') as Seen };
  };
  const closed = (context: BrowserContext): Promise<void> => new Promise((r) => context.once('close', () => r()));

  it("lends a finished case's context to the next case wiped: no cookie, storage or history of the first reaches the second", async () => {
    const pages = new CasePages();
    try {
      const one = new CaseStop();
      const first = await pages.withPage(one, undefined, launched, store);
      // the case itself still sees what it left
      expect((await pages.withPage(one, undefined, launched, look)).seen).toEqual({ cookie: 'header=yes; script=yes', local: 'local', session: 'session', databases: 1 });
      one.stop('case finished');
      const two = new CaseStop();
      const next = await pages.withPage(two, undefined, launched, look);
      expect(next.context).toBe(first);
      expect(next.seen).toEqual({ cookie: '', local: null, session: null, databases: 0 });
      // the earlier case's pages are not in the tab's history: about:blank and the page just loaded
      expect(await pages.withPage(two, undefined, launched, (p) => p.evaluate('history.length'))).toBe(2);
      two.stop('case finished');
    } finally {
      await pages.closeAll();
    }
    expect(pages.contexts).toBe(0);
  }, 60_000);

  it('closes a context whose wipe fails, and the next case gets a new one', async () => {
    const pages = new CasePages(() => Promise.reject(new Error('planted wipe failure')));
    try {
      const one = new CaseStop();
      const first = await pages.withPage(one, undefined, launched, store);
      const gone = closed(first);
      one.stop('case finished');
      await gone;
      const next = await pages.withPage(new CaseStop(), undefined, launched, look);
      expect(next.context).not.toBe(first);
      expect(next.seen).toEqual({ cookie: '', local: null, session: null, databases: 0 });
    } finally {
      await pages.closeAll();
    }
  }, 60_000);

  it('closes a context that opened a second page, and one whose case stopped during an action', async () => {
    const pages = new CasePages();
    try {
      const popup = new CaseStop();
      const first = await pages.withPage(popup, undefined, launched, async (page) => {
        await page.goto(`${server.url}/store`);
        await Promise.all([page.context().waitForEvent('page'), page.evaluate("void window.open('/store')")]);
        return page.context();
      });
      const gone = closed(first);
      popup.stop('case finished');
      await gone;

      const timedOut = new CaseStop();
      let release = (): void => undefined;
      const held = new Promise<void>((r) => (release = r));
      let during: BrowserContext | undefined;
      const action = pages.withPage(timedOut, undefined, launched, async (page) => {
        during = page.context();
        await held;
      });
      while (!during) await new Promise((r) => setTimeout(r, 10));
      const cut = closed(during);
      timedOut.stop(new Error('the case timed out'));
      await cut;
      release();
      await action.catch(() => undefined);
    } finally {
      await pages.closeAll();
    }
  }, 60_000);

  it("lends no context of a browser that went away: the next case's context is the new browser's", async () => {
    const pages = new CasePages();
    let current = await launchChromium(findChromium() ?? '');
    try {
      const one = new CaseStop();
      const first = await pages.withPage(one, undefined, () => Promise.resolve(current), store);
      one.stop('case finished');
      const two = new CaseStop();
      expect(await pages.withPage(two, undefined, () => Promise.resolve(current), async (p) => p.context())).toBe(first);
      two.stop('case finished');
      // the context is wiped for a next case (or idle already) when its browser goes
      await current.close();
      current = await launchChromium(findChromium() ?? '');
      const next = await pages.withPage(new CaseStop(), undefined, () => Promise.resolve(current), look);
      expect(next.context.browser()).toBe(current);
      expect(next.seen).toEqual({ cookie: '', local: null, session: null, databases: 0 });
    } finally {
      await pages.closeAll();
      await current.close();
    }
  }, 60_000);

  it('gives each lane of a case a context of its own, the lanes running side by side, and a lane its actions one after another', async () => {
    const pages = new CasePages();
    const stop = new CaseStop();
    try {
      // each lane's action waits until the other lane's has started: they can only end side by side
      const started: Array<() => void> = [];
      const both = Promise.all([0, 1].map((i) => new Promise<void>((r) => (started[i] = r))));
      const lane = (n: number): Promise<BrowserContext> =>
        pages.withPage(stop, n, launched, async (page) => {
          started[n]?.();
          await both;
          return page.context();
        });
      const [a, b] = await Promise.all([lane(0), lane(1)]);
      expect(a).not.toBe(b);
      // the lane keeps its context; its second action starts only once the first has ended
      const order: string[] = [];
      const slow = pages.withPage(stop, 0, launched, async (page) => {
        order.push('first start');
        await new Promise((r) => setTimeout(r, 200));
        order.push('first end');
        return page.context();
      });
      const fast = pages.withPage(stop, 0, launched, async (page) => {
        order.push('second');
        return page.context();
      });
      expect(await Promise.all([slow, fast])).toEqual([a, a]);
      expect(order).toEqual(['first start', 'first end', 'second']);
      // without a lane the case has a third
      expect(await pages.withPage(stop, undefined, launched, async (page) => page.context())).not.toBe(a);
    } finally {
      stop.stop('case finished');
      await pages.closeAll();
    }
  }, 60_000);
});
