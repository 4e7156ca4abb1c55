import type { Browser, Page } from 'playwright-core';
import type { StopSource } from '../../targets/stop-source.js';
import { ContextPool, type Lease, type Wipe } from './context-pool.js';

/** One user's browsing (a case, or one lane of it): its context (its cookies), its one page, the actions queued on it. */
interface CasePage {
  lease: Promise<Lease>;
  /** Actions queued or running: a context given back with one under way is closed, not wiped. */
  busy: number;
  /** The end of the last action queued: a case's actions take the page one after another. */
  tail: Promise<void>;
  /** Given back to the pool already. */
  returned: boolean;
}

/**
 * The browser contexts of the cases in flight: one per case, or per lane of a case whose
 * property runs go side by side (each lane signs in on its own, as another person would), taken
 * at its first action and given back when the case stops (its end, its timeout, the run's
 * interruption). A case's actions share its context and its page, as one person's visits in one
 * tab do: a sign-in serves the whole case, and a form submitted again and again (fifty user
 * codes) loads no new page or context each time. Cases running side by side have contexts side
 * by side in one browser, no cookie passing between them; a context given back is wiped before
 * another case gets it, or closed (context-pool.ts).
 */
export class CasePages {
  private readonly byCase = new Map<StopSource, Map<number | undefined, CasePage>>();
  private readonly pool: ContextPool;

  constructor(wipe?: Wipe) {
    this.pool = new ContextPool(wipe);
  }

  /**
   * Runs `use` with the page of the case `stop` belongs to (of its lane `lane`, when given),
   * after the earlier actions of that case and lane have ended. `browser` starts the run's
   * browser when the case has no context yet.
   */
  async withPage<T>(stop: StopSource, lane: number | undefined, browser: () => Promise<Browser>, use: (page: Page) => Promise<T>): Promise<T> {
    const entry = this.entry(stop, lane, browser);
    const before = entry.tail;
    let done = (): void => undefined;
    entry.tail = new Promise<void>((r) => (done = r));
    entry.busy++;
    try {
      await before;
      const lease = await entry.lease;
      if (!lease.page || lease.page.isClosed()) lease.page = await lease.context.newPage();
      return await use(lease.page);
    } finally {
      entry.busy--;
      done();
    }
  }

  /** Closes every context still open (the run's end). */
  async closeAll(): Promise<void> {
    this.byCase.clear();
    await this.pool.closeAll();
  }

  /** How many contexts are open: lent, idle or being wiped (for tests). */
  get contexts(): number {
    return this.pool.size;
  }

  private entry(stop: StopSource, lane: number | undefined, browser: () => Promise<Browser>): CasePage {
    let lanes = this.byCase.get(stop);
    const known = lanes?.get(lane);
    if (known) return known;
    if (!lanes) {
      const mine = new Map<number | undefined, CasePage>();
      lanes = mine;
      this.byCase.set(stop, mine);
      stop.onStop(() => {
        if (this.byCase.get(stop) === mine) this.byCase.delete(stop);
        for (const e of mine.values()) this.giveBack(e);
        mine.clear();
      });
    }
    const lease = this.pool.take(browser);
    const entry: CasePage = { lease, busy: 0, tail: Promise.resolve(), returned: false };
    const inLane = lanes;
    inLane.set(lane, entry);
    const forget = (): void => {
      if (inLane.get(lane) === entry) inLane.delete(lane);
    };
    lease.then(
      (l) => {
        // a context gone under the case (the browser crashed) is taken afresh by its next action
        l.context.on('close', forget);
        if (stop.stopped) {
          forget();
          this.giveBack(entry);
        }
      },
      forget,
    );
    return entry;
  }

  /** Gives the entry's context back to the pool once it is known: wiped for reuse when no action of it is under way. */
  private giveBack(entry: CasePage): void {
    if (entry.returned) return;
    entry.returned = true;
    const idle = entry.busy === 0;
    void entry.lease.then(
      (l) => this.pool.give(l, idle),
      () => undefined,
    );
  }
}
