import { SpecgateError } from '../../errors.js';

/** Parses `900`, `"900s"`, `"10m"`, `"1h"`, `"250ms"` (after expressions are resolved) into milliseconds. */
export function parseDuration(value: unknown): number {
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value) * 1000;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(String(value));
  if (!m?.[1]) throw new SpecgateError('SG_EXPRESSION', `"${String(value)}" is not a duration; write seconds (900, "900s") or "10m", "1h", "250ms"`);
  const n = Number(m[1]);
  switch (m[2]) {
    case 'ms': return n;
    case 'm': return n * 60_000;
    case 'h': return n * 3_600_000;
    default: return n * 1000;
  }
}

/**
 * How time-bound cases may let time pass for the target:
 * `virtual` (reference targets), `hook` (the profile's clock-control hook), `real` (--include-slow),
 * or `none`: such cases are reported skipped with the reason.
 */
export type TimeMode = 'virtual' | 'hook' | 'real' | 'none';

export const SKIP_NO_CLOCK =
  'time-bound: the target has no clock-control hook; add `clock:` to the target profile or pass --include-slow to wait in real time';

/** Thrown inside a case to end it as skipped (e.g. a typed check needs time and none can pass). */
export class SkipCase extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
