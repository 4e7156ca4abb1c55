import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { SpecgateError } from '../../errors.js';
import { PageDom } from '../../targets/browser/page-dom.js';
import { webOrigin } from '../../targets/browser/web-origin.js';

/** How long closing a context may hold up whoever waits for it (ms); the browser's close ends it anyway. */
const CONTEXT_CLOSE_MS = 5000;

/** How long wiping a context for its next user may take (ms); one that takes longer is closed instead. */
export const WIPE_MS = 5000;

/** How many wiped contexts wait for a next case at most; more are closed. */
export const IDLE_CONTEXTS = 4;

/** Closes `context`, waiting at most {@link CONTEXT_CLOSE_MS}. */
export async function closeSoon(context: BrowserContext): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([context.close().catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, CONTEXT_CLOSE_MS)))]);
  clearTimeout(timer);
}

/** A context lent to one user (a case, or one lane of it): its one page, made at the first action. */
export interface Lease {
  readonly context: BrowserContext;
  page: Page | undefined;
}

/**
 * What a context's pages did that a wipe must undo or cannot: the origins of every response
 * (their storage is cleared; a document's storage is its origin's, and every document of an
 * http(s) origin came with a response), and whether it may hold what no wipe reaches.
 */
interface Usage {
  origins: Set<string>;
  /**
   * A second page (a popup: a history and session storage of its own), a document in a frame
   * (its storage may be partitioned by the page's site) or an HTTP authentication challenge
   * (credentials the network layer keeps for the context, which DevTools cannot clear).
   */
  tainted: boolean;
}

/** Clears what a context's visits left; throws when it cannot. Replaceable in tests. */
export type Wipe = (lease: Lease, origins: ReadonlySet<string>) => Promise<void>;

/**
 * Leaves the lease's page on about:blank with nothing of its visits: no cookie, no storage of
 * any origin it reached, no cache, no permission granted, no history. The page stays: a new one
 * costs as much as a new context (its own renderer), and its session storage is cleared with
 * the rest.
 */
export const wipeLease: Wipe = async (lease, origins) => {
  const page = lease.page;
  if (!page || page.isClosed()) throw new SpecgateError('SG_INTERNAL', 'the page to wipe has closed');
  await page.goto('about:blank', { timeout: WIPE_MS });
  const dom = await PageDom.of(page);
  if (!dom) throw new SpecgateError('SG_INTERNAL', 'the page to wipe has no DevTools session');
  await dom.forget(origins);
  await lease.context.clearCookies();
  await lease.context.clearPermissions();
};

/**
 * The contexts the browser agent lends to cases: one that a case has finished with is wiped
 * (see {@link wipeLease}) and lent to the next case rather than closed, since a new context and
 * its first page cost Chromium about four times what a wipe does. A context whose wipe fails
 * or runs out of time, or that may hold what a wipe does not reach (see Usage), is closed
 * instead. A case that finds none idle waits for one being wiped, or gets a new one.
 */
export class ContextPool {
  private idle: Lease[] = [];
  private wiping = 0;
  private waiters: Array<(lease: Lease | undefined) => void> = [];
  private readonly usage = new WeakMap<BrowserContext, Usage>();
  private readonly contexts = new Set<BrowserContext>();
  private closed = false;

  constructor(
    private readonly wipe: Wipe = wipeLease,
    private readonly keep: number = IDLE_CONTEXTS,
  ) {}

  /** A context for a new user: a wiped one of the current browser, else a new one. */
  async take(browser: () => Promise<Browser>): Promise<Lease> {
    const current = await browser();
    for (;;) {
      const lease = this.idle.pop() ?? (this.wiping > this.waiters.length ? await new Promise<Lease | undefined>((r) => this.waiters.push(r)) : undefined);
      if (!lease) break;
      if (lease.context.browser() === current && current.isConnected()) return lease;
      void closeSoon(lease.context);
    }
    return this.make(current);
  }

  /**
   * Takes back a lease its user has finished with: `reusable` when no action of it is under way
   * (a case stopped by its timeout mid-action gives its context up for closing).
   */
  give(lease: Lease, reusable: boolean): void {
    const usage = this.usage.get(lease.context);
    if (!reusable || this.closed || !usage || usage.tainted || lease.context.pages().length > 1) {
      this.hand(undefined);
      void closeSoon(lease.context);
      return;
    }
    this.wiping++;
    void this.wiped(lease, usage).then((ok) => {
      this.wiping--;
      if (ok && !this.closed) {
        usage.origins.clear();
        this.hand(lease);
        return;
      }
      this.hand(undefined);
      void closeSoon(lease.context);
    });
  }

  /** Closes every context, lent or idle; nothing is lent afterwards. */
  async closeAll(): Promise<void> {
    this.closed = true;
    this.idle = [];
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(undefined);
    await Promise.all([...this.contexts].map((c) => closeSoon(c)));
  }

  /** How many contexts are open (lent, idle or being wiped). */
  get size(): number {
    return this.contexts.size;
  }

  /** Gives a wiped lease (or, when a wipe failed, the turn to make a new one) to the first waiter, else keeps it idle. */
  private hand(lease: Lease | undefined): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter(lease);
      return;
    }
    if (!lease) return;
    if (this.idle.length < this.keep) this.idle.push(lease);
    else void closeSoon(lease.context);
  }

  private async wiped(lease: Lease, usage: Usage): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), WIPE_MS)));
    try {
      const done = this.wipe(lease, usage.origins).then(
        () => true,
        () => false,
      );
      // whatever the pages did while the wipe ran counts too
      return (await Promise.race([done, late])) && !usage.tainted && lease.context.pages().length <= 1;
    } finally {
      clearTimeout(timer);
    }
  }

  private async make(browser: Browser): Promise<Lease> {
    const context = await browser.newContext();
    if (this.closed) {
      void closeSoon(context);
      throw new SpecgateError('SG_INTERNAL', 'the browser user agent was asked for a page after the target stopped');
    }
    const usage: Usage = { origins: new Set(), tainted: false };
    this.usage.set(context, usage);
    this.contexts.add(context);
    let pages = 0;
    context.on('page', () => {
      if (++pages > 1) usage.tainted = true;
    });
    context.on('response', (r: Response) => {
      const origin = webOrigin(r.url());
      if (origin !== undefined) usage.origins.add(origin);
      if (r.status() === 401 || r.status() === 407) usage.tainted = true;
      try {
        if (r.request().isNavigationRequest() && r.frame().parentFrame() !== null) usage.tainted = true;
      } catch {
        // a service worker's response has no frame
      }
    });
    context.on('close', () => {
      this.contexts.delete(context);
      this.idle = this.idle.filter((l) => l.context !== context);
    });
    return { context, page: undefined };
  }
}
