import { SpecgateError } from '../../src/errors.js';
import { MAX_FIELD_NUMBER, RESERVED_FIELD_NUMBERS, type EnumRangeValue, type MessageRangeValue } from './descriptor-types.js';

/**
 * Field numbers of one message. The compiler accepts numbers 1..2^29-1 except 19000..19999,
 * unique within the message and outside its reserved and extension ranges; ranges must not
 * overlap one another. Allocation is a deterministic walk from a hint, so a shrunk hint still
 * gives a valid number.
 */
export class FieldNumberSpace {
  readonly ranges: MessageRangeValue[] = [];
  private readonly used = new Set<number>();

  /** Places a half-open range [start, end) near the hint, or returns null when it does not fit. */
  placeRange(startHint: number, length: number, toMax: boolean): MessageRangeValue | null {
    let start = clamp(startHint, 1, MAX_FIELD_NUMBER);
    // An open-ended range starts high enough to leave room for the message's own fields.
    if (toMax) start = Math.max(start, 1000);
    for (let guard = 0; guard < 64 && start <= MAX_FIELD_NUMBER; guard++) {
      const end = toMax ? MAX_FIELD_NUMBER + 1 : Math.min(start + length, MAX_FIELD_NUMBER + 1);
      if (start <= RESERVED_FIELD_NUMBERS.end && end > RESERVED_FIELD_NUMBERS.start) {
        start = RESERVED_FIELD_NUMBERS.end + 1;
        continue;
      }
      const clash = this.ranges.find((r) => start < r.end && end > r.start);
      if (clash) {
        start = clash.end;
        continue;
      }
      const range = { start, end };
      this.ranges.push(range);
      return range;
    }
    return null;
  }

  /** Claims a free field number, starting the search at the hint. */
  allocate(hint: number): number {
    let n = clamp(hint, 1, MAX_FIELD_NUMBER);
    for (let guard = 0; guard < 100_000; guard++) {
      if (n > MAX_FIELD_NUMBER) n = 1;
      if (n >= RESERVED_FIELD_NUMBERS.start && n <= RESERVED_FIELD_NUMBERS.end) {
        n = RESERVED_FIELD_NUMBERS.end + 1;
        continue;
      }
      const inRange = this.ranges.find((r) => n >= r.start && n < r.end);
      if (inRange) {
        n = inRange.end;
        continue;
      }
      if (this.used.has(n)) {
        n++;
        continue;
      }
      this.used.add(n);
      return n;
    }
    throw new SpecgateError('SG_INTERNAL', `no free field number near ${hint}`);
  }
}

/**
 * Extension numbers of one extendee: inside one of its extension ranges and unique across every
 * file of the set (the compiler rejects two extensions of one message with the same number).
 */
export class ExtensionNumberSpace {
  private readonly used = new Set<number>();

  constructor(private readonly ranges: readonly MessageRangeValue[]) {}

  /** A free number in the ranges, chosen from the hint; null when the ranges are full. */
  allocate(hint: number): number | null {
    if (this.ranges.length === 0) return null;
    const first = Math.abs(hint) % this.ranges.length;
    for (let k = 0; k < this.ranges.length; k++) {
      const range = this.ranges[(first + k) % this.ranges.length];
      if (!range) continue;
      const size = range.end - range.start;
      const offset = Math.abs(hint) % size;
      for (let step = 0; step < Math.min(size, 256); step++) {
        const n = range.start + ((offset + step) % size);
        if (!this.used.has(n)) {
          this.used.add(n);
          return n;
        }
      }
    }
    return null;
  }
}

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/**
 * Enum value numbers: any int32, unique unless aliased, outside the enum's reserved ranges
 * (inclusive at both ends); proto3 enums start with 0, so their reserved ranges avoid 0.
 */
export class EnumNumberSpace {
  readonly ranges: EnumRangeValue[] = [];
  private readonly used = new Set<number>();

  constructor(private readonly keepZeroFree: boolean) {}

  placeRange(startHint: number, length: number): EnumRangeValue | null {
    let start = clamp(startHint, INT32_MIN, INT32_MAX);
    for (let guard = 0; guard < 64; guard++) {
      const end = Math.min(start + length - 1, INT32_MAX);
      if (this.keepZeroFree && start <= 0 && end >= 0) {
        start = 1;
        continue;
      }
      const clash = this.ranges.find((r) => start <= r.end && end >= r.start);
      if (clash) {
        if (clash.end >= INT32_MAX) return null;
        start = clash.end + 1;
        continue;
      }
      const range = { start, end };
      this.ranges.push(range);
      return range;
    }
    return null;
  }

  allocate(hint: number): number {
    let n = clamp(hint, INT32_MIN, INT32_MAX);
    for (let guard = 0; guard < 100_000; guard++) {
      if (n > INT32_MAX) n = INT32_MIN;
      const inRange = this.ranges.find((r) => n >= r.start && n <= r.end);
      if (inRange) {
        n = inRange.end + 1;
        continue;
      }
      if (this.used.has(n)) {
        n++;
        continue;
      }
      this.used.add(n);
      return n;
    }
    throw new SpecgateError('SG_INTERNAL', `no free enum number near ${hint}`);
  }

  /** Marks a number as taken without searching (the first value of a proto3 enum is 0). */
  take(n: number): void {
    this.used.add(n);
  }
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(Math.max(Math.trunc(n), min), max);
}
