/**
 * Time bounds of the client-side cases, on the harness's clock: real time plus what the client
 * slept through the clock hook (src/targets/client-process/client-clock.ts), so a client that
 * waits for real takes these in real time. None of them waits for a spec-sized period (900 s
 * expiry, 10-minute code): the platform answers expired_token when the case decides.
 */
export const CLIENT_TIMING = {
  /**
   * How much earlier than `interval` a poll may arrive and still count as "no faster than
   * interval" (spec 000, B, Endpoints 5). Gaps are measured between arrival stamps at the
   * platform. A client that waits `interval` after each answer can never look too fast: the
   * answer leaves after the stamp, so the next poll arrives at least `interval` after it. The
   * tolerance is for clients that schedule polls from their send times (a timer every
   * `interval`): their gaps shrink by however much later the previous poll was stamped than the
   * next, which is loopback jitter plus the harness's event-loop delay (milliseconds when idle,
   * up to a few hundred on a machine under heavy parallel load). 250 ms is at most a quarter of
   * the interval a case judges (1 s; the interval case uses 2 s, where a client polling faster
   * than 7/8 of the interval is caught).
   */
  toleranceMs: 250,
  /**
   * How much later than `expires_in` after the device code request a poll may arrive and still
   * count as "until the codes expire" (spec 000, B, Endpoints 5). The client counts from when it
   * read the answer, which under heavy parallel load reached clients up to 3.5 s after the
   * platform stamped the request. The case that judges this keeps the codes answering
   * authorization_pending 10 s past their expires_in, so a client that polls on regardless is
   * seen polling up to 10 s late, well beyond this margin.
   */
  expiryToleranceMs: 5000,
  /** The client must show the authorization URL or the user code within this (ms). */
  startMs: 15_000,
  /** Delivering the redirect to the client's loopback listener (ms). */
  deliverMs: 10_000,
  /** After the redirect or the token, the client gets this long to finish (ms). */
  finishMs: 15_000,
  /** The person takes at most this long to read the user code off the screen (ms). */
  readCodeMs: 3_000,
} as const;

/**
 * How long the harness watches after a terminal answer (access_denied, expired_token) for a
 * poll that should not come: three of the longest interval in force, plus two seconds. A
 * client still polling at any pace the interval allows is seen at least twice in that window.
 */
export function watchAfterTerminalMs(intervalSeconds: number): number {
  return (3 * intervalSeconds + 2) * 1000;
}

/**
 * How long a run goes on after a terminal answer: the watch above, and at least as long as a
 * client gets to finish after a token (a client that ends the flow may take seconds to exit on a
 * busy machine; one that exits ends the run at once).
 */
export function settleAfterTerminalMs(intervalSeconds: number): number {
  return Math.max(watchAfterTerminalMs(intervalSeconds), CLIENT_TIMING.finishMs);
}
