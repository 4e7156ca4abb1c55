import type { CDPSession, Page } from 'playwright-core';
import { PROBE_SCRIPT, mayBePlainCss, type ProbeAnswer, type ProbeOp } from './page-probe.js';

/** The DevTools session of each page, made at its first fast read and kept while the page lives. */
const sessions = new WeakMap<Page, Promise<PageDom | undefined>>();

interface FrameEvent {
  frameId?: string;
  frame?: { id: string; parentId?: string };
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

  private constructor(
    private readonly session: CDPSession,
    private mainFrame: string,
  ) {
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
      return new PageDom(session, tree.frameTree.frame.id);
    } catch {
      return undefined;
    }
  }

  /** Runs the probe; `undefined` when Playwright must answer. */
  async probe(selector: string, op: ProbeOp, arg?: string): Promise<ProbeAnswer | undefined> {
    if (!mayBePlainCss(selector)) return undefined;
    try {
      const expression = `(${PROBE_SCRIPT})(${JSON.stringify(selector)}, ${JSON.stringify(op)}, ${JSON.stringify(arg ?? null)})`;
      const r = await this.session.send('Runtime.evaluate', { expression, returnByValue: true });
      if (r.exceptionDetails) return undefined;
      const value = r.result.value as ProbeAnswer | null | undefined;
      return value && typeof value.count === 'number' ? value : undefined;
    } catch {
      return undefined;
    }
  }

  /** Fills the field `selector` names with `value`; false when Playwright must. */
  async fill(selector: string, value: string): Promise<boolean> {
    // an empty value is a key press (Delete) in Playwright's fill: left to it
    if (value === '') return false;
    const focused = await this.probe(selector, 'fill');
    if (focused?.value !== true) return false;
    try {
      await this.session.send('Input.insertText', { text: value });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Clicks the element `selector` names, then waits (until `deadline`) for a navigation of the
   * main frame the click requested to commit or stop, or for `failed` (the caller's sign that it
   * failed: Chromium's error page for it commits later), as Playwright's click does; the caller
   * follows it to its end. False when the click was not made: Playwright must make it.
   */
  async click(selector: string, deadline: number, failed?: Promise<void>): Promise<boolean> {
    const at = await this.probe(selector, 'click');
    const point = at?.value as { x?: unknown; y?: unknown } | undefined;
    if (typeof point?.x !== 'number' || typeof point.y !== 'number') return false;
    const { x, y } = point;
    this.requested = 0;
    const endedBefore = this.ended;
    // No move first: the press at a new point has the browser send the pointer's enter and over
    // events itself, and a move would cost a frame (moves are dispatched with animation frames).
    try {
      await this.session.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: 1 });
    } catch {
      return false;
    }
    // from the press on the click is made: whatever fails now is not made again
    try {
      await this.session.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: 1 });
      // a form's submission is a task the click posts: a round trip to the page lets it be requested
      await this.session.send('Page.enable');
      if (this.requested > 0) await this.endedSince(endedBefore, deadline, failed);
      // one more round trip, to the browser (not the page, which is busy loading): Playwright's own
      // events of that navigation, sent before its answer, have been read by then
      await this.session.send('Target.getTargetInfo');
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
