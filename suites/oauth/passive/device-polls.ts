import type { MatchedExchange, PassiveRule, PassiveRuleFinding } from '../../../src/engine/suite-module.js';
import { CLIENT_TIMING } from '../checks/client-timing.js';
import { answerFields, deviceChains, errorOf, exchangesOf, isDevicePoll, OP, sentAt, sentParams, verdict } from './recorded.js';

/** How much sooner than `interval` a poll must come, by the recorded times, to count as too fast (the live judges' tolerance). */
const TOLERANCE_MS = CLIENT_TIMING.toleranceMs;
/** What slow_down adds to the interval (B, Errors: 5 becomes 10). */
const SLOW_DOWN_STEP = 5;
const PENDING = new Set(['authorization_pending', 'slow_down']);

/**
 * The device polls of a recording against their recorded times (B, States and transitions,
 * Errors), per device code, the interval in force being the one its device authorization
 * answered, raised by each slow_down:
 * - a poll sooner than the interval after the previous poll of a pending code answers slow_down,
 *   not authorization_pending (OAUTH-DEVICE-SLOW-DOWN; after a slow_down, against the raised
 *   interval: OAUTH-DEVICE-INTERVAL-RAISED). A poll that got a token or a terminal error is not
 *   judged: the user may have acted between the two polls;
 * - slow_down carries the interval plus 5 (OAUTH-DEVICE-SLOW-DOWN-INTERVAL);
 * - a poll of a code nobody settled later than its expires_in answers expired_token
 *   (OAUTH-DEVICE-EXPIRED-TOKEN), and every expired_token names token_expired
 *   (OAUTH-DEVICE-EXPIRED-DESCRIPTION);
 * - a poll without client_id answers incorrect_client_credentials (OAUTH-DEVICE-INCORRECT-CLIENT).
 */
export const devicePolls: PassiveRule = {
  description: 'recorded device polls against their times: slow_down when polled too fast and its new interval, expired_token after expires_in and its description, a poll without client_id',
  requirements: ['OAUTH-DEVICE-SLOW-DOWN', 'OAUTH-DEVICE-INTERVAL-RAISED', 'OAUTH-DEVICE-SLOW-DOWN-INTERVAL', 'OAUTH-DEVICE-EXPIRED-TOKEN', 'OAUTH-DEVICE-EXPIRED-DESCRIPTION', 'OAUTH-DEVICE-INCORRECT-CLIENT'],
  judge(view) {
    const found: Record<string, PassiveRuleFinding[]> = {};
    const seen: Record<string, number> = {};
    const note = (id: string, x: MatchedExchange, message?: string, more: { expected?: unknown; actual?: unknown } = {}): void => {
      seen[id] = (seen[id] ?? 0) + 1;
      if (message) (found[id] ??= []).push({ message, ...more, exchange: x });
    };
    let timed = 0;
    for (const chain of deviceChains(view)) {
      let interval = chain.interval;
      // the answer that set the interval in force: the issuing one, then each slow_down
      let intervalFrom = chain.issue;
      let raised = false;
      let settled = false;
      const issuedAt = chain.issue ? sentAt(chain.issue) : undefined;
      chain.polls.forEach((x, i) => {
        const error = errorOf(x);
        const at = sentAt(x);
        const prev = chain.polls[i - 1];
        const prevAt = prev ? sentAt(prev) : undefined;
        // too fast: the previous poll left the code pending, this one came sooner than the interval
        if (prev && interval !== undefined && at !== undefined && prevAt !== undefined && PENDING.has(errorOf(prev) ?? '')) {
          timed++;
          const gap = at - prevAt;
          if (gap < interval * 1000 - TOLERANCE_MS && (error === 'slow_down' || error === 'authorization_pending')) {
            const id = raised ? 'OAUTH-DEVICE-INTERVAL-RAISED' : 'OAUTH-DEVICE-SLOW-DOWN';
            note(id, x, error === 'slow_down' ? undefined : `a poll ${gap} ms after the previous one (entry ${prev.recorded.index}), sooner than the interval of ${interval} s${raised ? ` raised by slow_down${intervalFrom ? ` (entry ${intervalFrom.recorded.index})` : ''}` : ''}, was answered ${error}`, { expected: 'slow_down', actual: error });
          }
        }
        if (error === 'slow_down' && interval !== undefined) {
          const given = answerFields(x.recorded)['interval'];
          const want = interval + SLOW_DOWN_STEP;
          note('OAUTH-DEVICE-SLOW-DOWN-INTERVAL', x, given === undefined ? 'the slow_down answer does not include the new interval' : Number(given) !== want ? `the slow_down answer's interval is ${given}, not ${interval}${intervalFrom ? ` (the interval entry ${intervalFrom.recorded.index} gave)` : ''} + ${SLOW_DOWN_STEP}` : undefined, { expected: want, actual: given ?? null });
        }
        if (error === 'slow_down') {
          const given = Number(answerFields(x.recorded)['interval']);
          interval = Number.isFinite(given) && given > 0 ? given : interval === undefined ? undefined : interval + SLOW_DOWN_STEP;
          raised = true;
          intervalFrom = x;
        }
        if (!settled && issuedAt !== undefined && at !== undefined && chain.expiresIn !== undefined && at > issuedAt + chain.expiresIn * 1000 + TOLERANCE_MS)
          note('OAUTH-DEVICE-EXPIRED-TOKEN', x, error === 'expired_token' ? undefined : `a poll ${Math.round((at - issuedAt) / 1000)} s after its device code was issued (entry ${chain.issue?.recorded.index ?? '?'}) with expires_in ${chain.expiresIn}, nobody having authorized or cancelled, was answered ${error ?? `HTTP ${x.recorded.status} without error`}`, { expected: 'expired_token', actual: error ?? null });
        if (error === undefined ? answerFields(x.recorded)['access_token'] !== undefined : error === 'access_denied' || error === 'expired_token') settled = true;
      });
    }
    for (const x of exchangesOf(view, OP.token).filter((y) => errorOf(y) === 'expired_token')) {
      const description = answerFields(x.recorded)['error_description'];
      note('OAUTH-DEVICE-EXPIRED-DESCRIPTION', x, description !== undefined && description.includes('token_expired') ? undefined : 'the expired_token answer does not name token_expired in its error_description', { expected: 'error_description naming token_expired', actual: description ?? null });
    }
    for (const x of exchangesOf(view, OP.token).filter((y) => isDevicePoll(y) && !sentParams(y.recorded)['client_id'])) {
      note('OAUTH-DEVICE-INCORRECT-CLIENT', x, errorOf(x) === 'incorrect_client_credentials' ? undefined : `a device poll without client_id was answered ${errorOf(x) ?? `HTTP ${x.recorded.status} without error`}`, { expected: 'incorrect_client_credentials', actual: errorOf(x) ?? null });
    }
    const lacking: Record<string, string> = {
      'OAUTH-DEVICE-SLOW-DOWN': timed ? 'no poll of a pending device code came sooner than its interval' : 'the recording holds no two polls of a device code whose interval it shows',
      'OAUTH-DEVICE-INTERVAL-RAISED': 'no poll after a slow_down came sooner than the raised interval',
      'OAUTH-DEVICE-SLOW-DOWN-INTERVAL': 'no slow_down answer to a poll of a device code whose interval the recording shows',
      'OAUTH-DEVICE-EXPIRED-TOKEN': 'no device code nobody settled was polled after its expires_in',
      'OAUTH-DEVICE-EXPIRED-DESCRIPTION': 'no expired_token answer was recorded',
      'OAUTH-DEVICE-INCORRECT-CLIENT': 'no device poll without client_id was recorded',
    };
    return this.requirements.map((id) => verdict(id, seen[id] ?? 0, found[id] ?? [], lacking[id] ?? ''));
  },
};
