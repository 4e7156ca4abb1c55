/**
 * The console reporter's progress: a status line redrawn in place on a TTY (throttled, with a
 * trailing redraw so the latest count shows), an occasional progress line in a log otherwise.
 */
import type { Style } from './style.js';

/** A TTY status line is redrawn at most this often (about 10 updates per second). */
const TTY_INTERVAL_MS = 100;
/** Without a TTY, a progress line at most this often, and only once a run is this old. */
const LOG_INTERVAL_MS = 5000;

/** The run's counts and the status line that shows them; anything printed goes through {@link print}. */
export class ConsoleStatus {
  total = 0;
  done = 0;
  failed = 0;
  suite = '';
  startedAt: number;
  private lastProgress = Number.NEGATIVE_INFINITY;
  private statusShown = false;
  private trailing: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly st: Style,
    private readonly now: () => number,
    private readonly tty: boolean,
    private readonly width: number,
  ) {
    this.startedAt = now();
  }

  /** Writes lines, first clearing the status line so they do not mix with it. */
  print(lines: string[]): void {
    this.clear();
    this.stream.write(`${lines.join('\n')}\n`);
  }

  /** Erases the status line if one is shown and cancels a pending redraw. */
  clear(): void {
    this.stopTrailing();
    if (this.statusShown) this.stream.write('\r\u001b[2K');
    this.statusShown = false;
  }

  /** Shows the counts: now if `force` or the interval has passed, else (on a TTY) a little later. */
  update(force: boolean): void {
    const t = this.now();
    if (this.tty) {
      if (force || t - this.lastProgress >= TTY_INTERVAL_MS) return this.draw(t);
      // Throttled: still show the latest count soon, or a slow case would hide it.
      this.trailing ??= setTimeout(() => this.draw(this.now()), TTY_INTERVAL_MS).unref();
      return;
    }
    if (t - this.startedAt < LOG_INTERVAL_MS || t - this.lastProgress < LOG_INTERVAL_MS) return;
    this.stream.write(`${this.text()}\n`);
    this.lastProgress = t;
  }

  /** Redraws the TTY status line. */
  private draw(t: number): void {
    this.stopTrailing();
    // Cut to the terminal width: a wrapped line cannot be rewritten with \r.
    this.stream.write(`\r\u001b[2K${this.st.dim(this.text().slice(0, this.width - 1))}`);
    this.statusShown = true;
    this.lastProgress = t;
  }

  /** Cancels a pending trailing redraw. */
  private stopTrailing(): void {
    if (this.trailing) clearTimeout(this.trailing);
    this.trailing = undefined;
  }

  /** The progress text: suite, cases done of all, failures. */
  private text(): string {
    return `[${this.suite}] ${this.done}/${this.total} cases, ${this.failed} failed`;
  }
}
