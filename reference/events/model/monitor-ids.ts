/**
 * Monitoring event ids: int64 values above 2^53, as the real service hands out, so a client
 * that parses `id` into a double loses digits and must use `id_str` (G, Event version 1).
 * No id is a multiple of 1024, the spacing of doubles at this size, so the nearest double of
 * every id is a different number: a precision loss anywhere shows.
 */
export class MonitorIdSequence {
  private last: bigint;

  constructor(start: bigint = 7_318_349_394_477_056_011n) {
    this.last = start;
  }

  /** The next id, `step` (plus a little) past the last one. */
  next(step = 1_048_583): bigint {
    let id = this.last + BigInt(step) * 2n + 1n;
    if (id % 1024n === 0n) id += 1n;
    this.last = id;
    return id;
  }
}
