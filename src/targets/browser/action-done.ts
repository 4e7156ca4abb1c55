/**
 * Telling a Playwright timeout that came after the action from one that came before it. A click
 * that starts a navigation waits for it; on a busy machine that wait can outlast the action's
 * timeout although the click was made and the browser goes on to land. Playwright's call log in
 * the error says which: "click action done" is logged once the click itself happened.
 */

/** playwright-core's TimeoutError, told by name so that callers do not load the library. */
export function isTimeout(e: unknown): boolean {
  return e instanceof Error && e.name === 'TimeoutError';
}

/** True when a Playwright error's call log says the click or tick itself was done (what timed out came after it). */
export function actionDone(e: unknown, kind: 'click' | 'check'): boolean {
  // the call log's lines come dimmed with ANSI codes: "\x1b[2m    - click action done\x1b[22m"
  const log = e instanceof Error ? e.message.replace(/\x1b\[[0-9;]*m/g, '') : '';
  return new RegExp(`^\\s*-\\s*${kind} action done\\s*$`, 'm').test(log);
}

/** True when `e` is a timeout that came after a click was made: the click counts as made. */
export function clickMadeBeforeTimeout(e: unknown): boolean {
  return isTimeout(e) && actionDone(e, 'click');
}
