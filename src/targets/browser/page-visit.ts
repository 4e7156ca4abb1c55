import type { Page, Request, Response } from 'playwright-core';
import type { BrowserSession } from './shared-browser.js';
import { SpecgateError } from '../../errors.js';
import { clickMadeBeforeTimeout, isTimeout } from './action-done.js';

/** One request the browser made while specgate drove a page. */
export interface BrowserRequest {
  method: string;
  /** The URL as sent (a browser never sends the `#fragment`). */
  url: string;
  /** Every header the browser sent, names in lower case. */
  headers: Record<string, string>;
  /** The body, when the request had one (a form submission, a script's POST). */
  postData?: string;
  /** What the browser made it for: document, script, fetch, xhr, ... */
  resourceType: string;
  /** True for a request that loads a page in a frame (a link, a redirect, a form submission). */
  navigation: boolean;
}

/** One answer the browser received, with its body as text (capped). */
export interface BrowserResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  /** The body as text; empty for redirects and answers the browser kept no body of. */
  body: string;
}

/** What one visit showed: every request and answer, where the page ended and what it says. */
export interface PageVisit {
  requests: BrowserRequest[];
  responses: BrowserResponse[];
  /** The page's URL at the end, `#fragment` included. */
  finalUrl: string;
  /** The visible text of the final page (innerText of its body). */
  text: string;
  /** True when `arriveAt` was given and the page reached such a URL in time. */
  arrived: boolean;
  /** What went wrong driving the page (a navigation error, a form field missing), if anything. */
  problem?: string;
}

export interface VisitOptions {
  /**
   * Done on the page once it has loaded (fill a form, click); its failure is kept as `problem`.
   * `left` says how much of the visit's budget remains (ms): the deadline for its page actions.
   */
  act?: (page: Page, left: () => number) => Promise<void>;
  /** The visit is over once the page's URL matches (a landing page); without it, once the network is idle. */
  arriveAt?: (url: URL) => boolean;
  /**
   * Without `arriveAt`: the visit is over as soon as the page shows this text (what a correct
   * page ends with), or else once the document the act started has loaded and the network is idle.
   */
  showsText?: string;
  /** The whole visit's budget (ms); loading a page takes no longer than the session's `timeoutMs` either. */
  timeoutMs?: number;
}

/** Body characters kept per answer: enough to find a leaked key, not to exhaust memory. */
export const RESPONSE_BODY_CAP = 256 * 1024;
const DEFAULT_TIMEOUT_MS = 15_000;
/** How long the page may stay busy after the visit's end before it is read as it is (ms). */
const SETTLE_MS = 3000;
/** How long the document an action (a click, a submit) starts gets to load. */
const ACT_LOAD_MS = 10_000;

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

async function recordRequest(r: Request): Promise<BrowserRequest> {
  // allHeaders() includes what headers() leaves out (cookies, headers set by the network stack).
  const headers = lowerKeys(await r.allHeaders().catch(() => r.headers()));
  const post = r.postData();
  return { method: r.method(), url: r.url(), headers, ...(post !== null ? { postData: post } : {}), resourceType: r.resourceType(), navigation: r.isNavigationRequest() };
}

async function recordResponse(r: Response): Promise<BrowserResponse> {
  const body = await r
    .body()
    .then((b) => b.subarray(0, RESPONSE_BODY_CAP).toString('utf8'))
    .catch(() => '');
  return { url: r.url(), status: r.status(), headers: lowerKeys(await r.allHeaders().catch(() => r.headers())), body };
}

const quietly = async (p: Promise<unknown>): Promise<void> => {
  await p.then(
    () => undefined,
    () => undefined,
  );
};

/**
 * Opens `url` in the session's tab, does `act` on it, and waits for the page to arrive
 * (`arriveAt`) or to settle; records every request the browser made (method, URL, headers,
 * post data) and every answer it received (with its body), in the order they happened. The tab
 * stays where the visit ended; the session's end wipes it (see shared-browser.ts).
 */
export async function visitPage(browser: BrowserSession, url: string, opts: VisitOptions = {}): Promise<PageVisit> {
  const budget = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + budget;
  const left = (): number => Math.max(1, deadline - Date.now());
  const page = browser.page;
  const requests: Promise<BrowserRequest>[] = [];
  const responses: Promise<BrowserResponse>[] = [];
  const onRequest = (r: Request): void => void requests.push(recordRequest(r));
  const onResponse = (r: Response): void => void responses.push(recordResponse(r));
  // On the context, not the page: a window the page opens makes requests too.
  browser.context.on('request', onRequest);
  browser.context.on('response', onResponse);
  let problem: string | undefined;
  let arrived = false;
  let settledAlready = false;
  try {
    try {
      // the first page is the target's answer: it gets the target's per-request deadline, when the session has one
      const loadMs = Math.min(left(), browser.timeoutMs ?? Number.POSITIVE_INFINITY);
      await page.goto(url, { waitUntil: 'load', timeout: loadMs }).catch((e: unknown) => {
        if (isTimeout(e)) throw new SpecgateError('SG_TARGET_TIMEOUT', `${url} did not load within ${loadMs} ms${browser.timeoutMs !== undefined && loadMs === browser.timeoutMs ? " (the target's http.timeoutMs)" : ''}`);
        throw e;
      });
      // A new document's load, if the act starts one (a form post: its server may take a while
      // on a busy machine); a page that answers in place has none, and only the text it shows
      // (`showsText`) or the wait's end tells its answer has come.
      const loaded = opts.act ? quietly(page.waitForEvent('load', { timeout: Math.min(left(), ACT_LOAD_MS) })) : Promise.resolve();
      if (opts.act) {
        // a click made whose navigation outlasts its timeout is a click made: the arrival decides
        await opts.act(page, left).catch((e: unknown) => {
          if (!clickMadeBeforeTimeout(e)) throw e;
        });
      }
      const arriveAt = opts.arriveAt;
      const shows = opts.showsText;
      if (arriveAt) {
        // the arrival is the event the visit waits for: the landing document loaded
        arrived = await page
          .waitForURL((u) => arriveAt(u), { timeout: left(), waitUntil: 'load' })
          .then(() => true)
          .catch(() => false);
        settledAlready = arrived;
      } else if (shows !== undefined) {
        const shown = page
          .getByText(shows)
          .first()
          .waitFor({ state: 'visible', timeout: left() })
          .then(() => true)
          .catch(() => false);
        const idle = loaded.then(() => quietly(page.waitForLoadState('networkidle', { timeout: Math.min(left(), SETTLE_MS) }))).then(() => false);
        settledAlready = await Promise.race([shown, idle]);
      } else await loaded;
    } catch (e) {
      problem = (e as Error).message.split('\n')[0] ?? String(e);
    }
    // the page ended where it was awaited: nothing more of it is the visit's
    if (!settledAlready) await quietly(page.waitForLoadState('networkidle', { timeout: Math.min(left(), SETTLE_MS) }));
    const finalUrl = page.url();
    // a page with a body answers at once; the limit is for one without, and a machine so busy
    // that the renderer is seconds behind must not read as a page that shows nothing
    const text = await page
      .locator('body')
      .innerText({ timeout: 5000 })
      .catch(() => '');
    return {
      requests: await settled(requests),
      responses: await settled(responses),
      finalUrl,
      text,
      arrived,
      ...(problem !== undefined ? { problem } : {}),
    };
  } finally {
    browser.context.off('request', onRequest);
    browser.context.off('response', onResponse);
  }
}

async function settled<T>(items: Promise<T>[]): Promise<T[]> {
  const all = await Promise.allSettled(items);
  return all.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
}
