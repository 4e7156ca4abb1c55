import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { StopSource } from '../../targets/stop-source.js';

/** How long closing a context may hold up whoever waits for it (ms); the browser's close ends it anyway. */
const CONTEXT_CLOSE_MS = 5000;

/** Closes `context`, waiting at most {@link CONTEXT_CLOSE_MS}. */
export async function closeSoon(context: BrowserContext): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([context.close().catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, CONTEXT_CLOSE_MS)))]);
  clearTimeout(timer);
}

/** One case's browsing: its context (its cookies), its one page, and the action running on it. */
interface CasePage {
  context: Promise<BrowserContext>;
  page: Page | undefined;
  /** The end of the last action queued: a case's actions take the page one after another. */
  tail: Promise<void>;
}

/**
 * The browser contexts of the cases in flight: one per case, made at the case's first action and
 * closed when the case stops (its end, its timeout, the run's interruption). A case's actions
 * share its context and its page, as one person's visits in one tab do: a sign-in serves the
 * whole case, and a form submitted again and again (fifty user codes) loads no new page or
 * context each time. Cases running side by side have contexts side by side in one browser, no
 * cookie passing between them.
 */
export class CasePages {
  private readonly byCase = new Map<StopSource, CasePage>();
  private readonly contexts = new Set<BrowserContext>();

  /**
   * Runs `use` with the page of the case `stop` belongs to, after the case's earlier actions
   * have ended. `browser` starts the run's browser when no context of the case exists yet.
   */
  async withPage<T>(stop: StopSource, browser: () => Promise<Browser>, use: (page: Page) => Promise<T>): Promise<T> {
    const entry = this.entry(stop, browser);
    const before = entry.tail;
    let done = (): void => undefined;
    entry.tail = new Promise<void>((r) => (done = r));
    try {
      await before;
      const context = await entry.context;
      if (!entry.page || entry.page.isClosed()) entry.page = await context.newPage();
      return await use(entry.page);
    } finally {
      done();
    }
  }

  /** Closes every context still open (the run's end). */
  async closeAll(): Promise<void> {
    this.byCase.clear();
    await Promise.all([...this.contexts].map((c) => closeSoon(c)));
  }

  private entry(stop: StopSource, browser: () => Promise<Browser>): CasePage {
    const known = this.byCase.get(stop);
    if (known) return known;
    const context = browser().then((b) => b.newContext());
    const entry: CasePage = { context, page: undefined, tail: Promise.resolve() };
    this.byCase.set(stop, entry);
    const forget = (): void => {
      if (this.byCase.get(stop) === entry) this.byCase.delete(stop);
    };
    context.then(
      (c) => {
        this.contexts.add(c);
        // a context gone under the case (the browser crashed) is made afresh by its next action
        c.on('close', () => {
          this.contexts.delete(c);
          forget();
        });
        if (stop.stopped) {
          forget();
          void closeSoon(c);
        }
      },
      forget,
    );
    stop.onStop(() => {
      forget();
      void context.then((c) => closeSoon(c), () => undefined);
    });
    return entry;
  }
}
