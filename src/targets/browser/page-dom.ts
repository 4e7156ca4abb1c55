import type { CDPSession, Page } from 'playwright-core';
import { CLICK_MISSED_SCRIPT, PROBE_SCRIPT, mayBePlainCss, type ProbeAnswer, type ProbeOp } from './page-probe.js';

/** The DevTools session of each page, made at its first fast read and kept while the page lives. */
const sessions = new WeakMap<Page, Promise<PageDom | undefined>>();

interface FrameEvent {
  frameId?: string;
  frame?: { id: string; parentId?: string };
}

interface ContextEvent {
  context?: { id: number; name?: string; auxData?: { frameId?: string } };
  executionContextId?: number;
}

/**
 * The script world the probe runs in: the page's documents, but none of the page's scripts, so
 * a page that replaces `querySelectorAll`, `getBoundingClientRect` and the like (or reads what
 * the probe leaves behind) changes nothing the probe sees.
 */
const WORLD = 'specgate-probe';

/** A DevTools call of the fast path that outlasted the step's time (the page's main thread is busy). */
export class PageBusy extends Error {
  constructor(method: string) {
    super(`the page did not answer ${method} in time`);
  }
}

/**
 * Reads and acts on a page through a DevTools session of its own, the way Playwright would
 * where the page already shows what is needed, at a fraction of the cost: one script call per
 * read (see page-probe.ts), a click as trusted mouse events at the element's centre, a fill as
 * text inserted into the focused field (the input events of typing, as Playwright's fill).
 * Every method answers `undefined` where Playwright must do the work: a selector that is not
 * plain CSS, an element that is not usable yet, a session that failed.
 */
export class PageDom {
  /** The main frame's navigations requested since the last click began. */
  private requested = 0;
  /** The main frame's navigations that ended (committed, within the document, or stopped) so far. */
  private ended = 0;
  private waiting: Array<() => void> = [];
  /** The probe's world in each frame that has one, by frame. */
  private readonly worlds = new Map<string, number>();

  private constructor(
    private readonly session: CDPSession,
    private mainFrame: string,
  ) {
    session.on('Runtime.executionContextCreated', (e: ContextEvent) => {
      const frame = e.context?.auxData?.frameId;
      if (e.context?.name === WORLD && frame !== undefined) this.worlds.set(frame, e.context.id);
    });
    session.on('Runtime.executionContextDestroyed', (e: ContextEvent) => {
      for (const [frame, id] of this.worlds) if (id === e.executionContextId) this.worlds.delete(frame);
    });
    session.on('Runtime.executionContextsCleared', () => this.worlds.clear());
    session.on('Page.frameRequestedNavigation', (e: FrameEvent) => {
      if (e.frameId === this.mainFrame) this.requested++;
    });
    session.on('Page.frameNavigated', (e: FrameEvent) => {
      if (!e.frame || e.frame.parentId !== undefined) return;
      this.mainFrame = e.frame.id;
      this.end();
    });
    session.on('Page.navigatedWithinDocument', (e: FrameEvent) => {
      if (e.frameId === this.mainFrame) this.end();
    });
    session.on('Page.frameStoppedLoading', (e: FrameEvent) => {
      if (e.frameId === this.mainFrame) this.end();
    });
  }

  /** The page's PageDom; `undefined` when no DevTools session can be had (the fast path is then off). */
  static of(page: Page): Promise<PageDom | undefined> {
    let made = sessions.get(page);
    if (!made) {
      made = PageDom.open(page);
      sessions.set(page, made);
    }
    return made;
  }

  private static async open(page: Page): Promise<PageDom | undefined> {
    try {
      const session = await page.context().newCDPSession(page);
      page.once('close', () => void session.detach().catch(() => undefined));
      await session.send('Page.enable');
      const tree = await session.send('Page.getFrameTree');
      const dom = new PageDom(session, tree.frameTree.frame.id);
      await session.send('Runtime.enable');
      // every later document gets the world as it is made; the one loaded now gets it here
      await session.send('Page.addScriptToEvaluateOnNewDocument', { source: '', worldName: WORLD });
      // (a document on its way out has none: its successor gets one, and the probe waits for it)
      await session.send('Page.createIsolatedWorld', { frameId: tree.frameTree.frame.id, worldName: WORLD }).catch(() => undefined);
      return dom;
    } catch {
      return undefined;
    }
  }

  /**
   * Forgets what the page's visits left in its context, for a context handed to another visitor:
   * the storage of each of `origins` (local and session storage, IndexedDB, cache storage,
   * service workers, everything DevTools' `Storage.clearDataForOrigin` names by "all"), the HTTP
   * cache, and the tab's history but for the page it shows (which the caller has made
   * about:blank first: no document of those origins is left to write again). Throws when
   * any of it fails: such a context is not to be handed on.
   */
  async forget(origins: Iterable<string>): Promise<void> {
    for (const origin of origins) await this.session.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    await this.session.send('Network.clearBrowserCache');
    await this.session.send('Page.resetNavigationHistory');
  }

  /** Makes the DevTools call `method`; past `deadline` (ms since the epoch), a PageBusy instead of its answer. */
  private async within<T>(method: string, deadline: number, call: (session: CDPSession) => Promise<T>): Promise<T> {
    const left = deadline - Date.now();
    if (left <= 0) throw new PageBusy(method);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new PageBusy(method)), left)));
    try {
      return await Promise.race([call(this.session), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Evaluates `expression` in the probe's world of the main frame; `undefined` when it has none (yet). */
  private async evaluate(expression: string, deadline: number): Promise<unknown> {
    const contextId = this.worlds.get(this.mainFrame);
    if (contextId === undefined) return undefined;
    try {
      const r = await this.within('Runtime.evaluate', deadline, (s) => s.send('Runtime.evaluate', { expression, contextId, returnByValue: true }));
      return r.exceptionDetails ? undefined : r.result.value;
    } catch (e) {
      if (e instanceof PageBusy) throw e;
      return undefined;
    }
  }

  /**
   * Runs the probe; `undefined` when Playwright must answer. Every method throws PageBusy when
   * the page does not answer by `deadline`.
   */
  async probe(selector: string, op: ProbeOp, deadline: number, arg?: string): Promise<ProbeAnswer | undefined> {
    if (!mayBePlainCss(selector)) return undefined;
    const expression = `(${PROBE_SCRIPT})(${JSON.stringify(selector)}, ${JSON.stringify(op)}, ${JSON.stringify(arg ?? null)})`;
    const value = (await this.evaluate(expression, deadline)) as ProbeAnswer | null | undefined;
    return value && typeof value.count === 'number' ? value : undefined;
  }

  /** Fills the field `selector` names with `value`; false when Playwright must. */
  async fill(selector: string, value: string, deadline: number): Promise<boolean> {
    // an empty value is a key press (Delete) in Playwright's fill: left to it
    if (value === '') return false;
    const focused = await this.probe(selector, 'fill', deadline);
    if (focused?.value !== true) return false;
    try {
      await this.within('Input.insertText', deadline, (s) => s.send('Input.insertText', { text: value }));
      return true;
    } catch (e) {
      if (e instanceof PageBusy) throw e;
      return false;
    }
  }

  /**
   * Clicks the element `selector` names, then waits (until `deadline`) for a navigation of the
   * main frame the click requested to commit or stop, or for `failed` (the caller's sign that it
   * failed: Chromium's error page for it commits later), as Playwright's click does; the caller
   * follows it to its end. False when the click was not made: Playwright must make it. The probe
   * leaves a guard in the page that cancels the press, release and click if they reach another
   * element (the page moved between the probe and the press): such a click is not made either.
   */
  async click(selector: string, deadline: number, failed?: Promise<void>): Promise<boolean> {
    const at = await this.probe(selector, 'click', deadline);
    const point = at?.value as { x?: unknown; y?: unknown } | undefined;
    if (typeof point?.x !== 'number' || typeof point.y !== 'number') return false;
    const { x, y } = point;
    this.requested = 0;
    const endedBefore = this.ended;
    // No move first: the press at a new point has the browser send the pointer's enter and over
    // events itself, and a move would cost a frame (moves are dispatched with animation frames).
    try {
      await this.within('Input.dispatchMouseEvent', deadline, (s) => s.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: 1 }));
    } catch (e) {
      if (e instanceof PageBusy) throw e;
      return false;
    }
    // from the press on the click is made, unless the guard cancelled it: whatever fails now is not made again
    try {
      await this.within('Input.dispatchMouseEvent', deadline, (s) => s.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: 1 }));
      // a form's submission is a task the click posts: a round trip to the page lets it be requested
      if ((await this.evaluate(CLICK_MISSED_SCRIPT, deadline)) === true) return false;
      if (this.requested > 0) await this.endedSince(endedBefore, deadline, failed);
      // one more round trip, to the browser (not the page, which is busy loading): Playwright's own
      // events of that navigation, sent before its answer, have been read by then
      await this.within('Target.getTargetInfo', deadline, (s) => s.send('Target.getTargetInfo'));
    } catch {
      // the session went with the page (it closed) or the wait ran out: the caller's settle says which
    }
    return true;
  }

  private end(): void {
    this.ended++;
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }

  /** Resolves once a navigation ended after `before` was read, or `failed` resolved, or at `deadline`. */
  private async endedSince(before: number, deadline: number, failed?: Promise<void>): Promise<void> {
    let gone = false;
    void failed?.then(() => (gone = true));
    while (this.ended === before && !gone) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise<void>((r) => this.waiting.push(r)), new Promise<void>((r) => (timer = setTimeout(r, left))), ...(failed ? [failed] : [])]);
      clearTimeout(timer);
    }
  }
}
