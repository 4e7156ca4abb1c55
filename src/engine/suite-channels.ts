import { EventBus, type EngineEvent } from './events.js';

/**
 * The events of suites that run side by side, told in the run's order of suites: every sink
 * sees one suite's events from its start to its finish, then the next suite's, exactly as when
 * the suites ran one after another. The first unfinished suite's events pass at once; a later
 * suite's are held until every suite before it has finished, then released in the order they
 * came.
 */
export class SuiteChannels {
  private head = 0;
  private readonly held: EngineEvent[][];
  private readonly closed: boolean[];

  constructor(
    private readonly bus: EventBus,
    private readonly count: number,
  ) {
    this.held = Array.from({ length: count }, () => []);
    this.closed = new Array<boolean>(count).fill(false);
  }

  /** The bus the `index`-th suite of the run emits on; it listens only when the run's bus does. */
  channel(index: number): EventBus {
    const channel = new EventBus();
    // a run without reporters builds no per-case event: nor does a suite of it
    if (this.bus.listening) channel.subscribe((e) => this.deliver(index, e));
    return channel;
  }

  /** The `index`-th suite has emitted its last event: the suites after it may be told. */
  close(index: number): void {
    this.closed[index] = true;
    while (this.head < this.count && this.closed[this.head]) {
      this.head++;
      const next = this.held[this.head];
      if (!next) continue;
      this.held[this.head] = [];
      for (const e of next) this.bus.emit(e);
    }
  }

  private deliver(index: number, e: EngineEvent): void {
    if (index === this.head) this.bus.emit(e);
    else (this.held[index] as EngineEvent[]).push(e);
  }
}
