import fc from 'fast-check';

/**
 * Device-flow poll timings (spec 000, B, States and transitions: slow_down, interval + 5).
 * Each entry is seconds relative to the interval in force before that poll: negative is too
 * soon, zero or more is allowed. Relative offsets keep a schedule meaningful whatever
 * interval a target hands out.
 */
export type PollSchedule = number[];

export function pollSchedule(): fc.Arbitrary<PollSchedule> {
  return fc.array(fc.integer({ min: -5, max: 3 }), { minLength: 2, maxLength: 7 });
}
