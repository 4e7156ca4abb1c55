/**
 * A sliding one-hour window of events per key: used for token creations (ten per hour)
 * and user code submissions (fifty per hour per application), spec 000, B, Limits.
 */
export class RateWindow {
  private readonly events = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Events of `key` still inside the window at `now`. */
  count(key: string, now: number): number {
    return this.live(key, now).length;
  }

  /** Whether one more event would exceed the limit. */
  full(key: string, now: number): boolean {
    return this.count(key, now) >= this.limit;
  }

  record(key: string, now: number): void {
    const list = this.live(key, now);
    list.push(now);
    this.events.set(key, list);
  }

  private live(key: string, now: number): number[] {
    return (this.events.get(key) ?? []).filter((t) => now - t < this.windowMs);
  }
}
