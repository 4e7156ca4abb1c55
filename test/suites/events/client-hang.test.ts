import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { CLIENT_JUDGES } from '../../../suites/events/checks/client-judges.js';
import { runClient } from '../../../suites/events/checks/client-run.js';

/**
 * An events client still running when its budget ends is stopped by the harness and judged on
 * what it sent until then (reference/events/client/README.md, "What the client does"). The
 * client here posts one event, with the API key but no application key, then sleeps.
 */
const BUDGET_MS = 1000;

/** Sends one request, says so, then never ends on its own. */
const SEND_ONE_THEN_SLEEP = `
fetch(process.env.SPECGATE_MON_URL + '/api/v1/events', {
  method: 'POST',
  headers: { 'MON-API-KEY': process.env.SPECGATE_MON_API_KEY, 'content-type': 'application/json' },
  body: JSON.stringify({ title: 'deployed', text: 'build 7' }),
}).then((res) => process.stdout.write('posted ' + res.status + '\\n'));
setInterval(() => undefined, 60000);
`;

describe('an events client that hangs past its budget', () => {
  it('is stopped by the harness after the budget and judged on the one request it sent', async () => {
    const ctx = { signal: new AbortController().signal } as CheckContext;
    const started = Date.now();
    const run = await runClient(ctx, [process.execPath, '-e', SEND_ONE_THEN_SLEEP], BUDGET_MS);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(BUDGET_MS);
    expect(took).toBeLessThan(4000);

    expect(run.finished.stopped).toBe(true);
    expect(run.finished.exchange.summary).toMatch(/^events client .* -> stopped by the harness$/s);
    expect(run.finished.stdout).toBe('posted 200\n');
    expect(run.calls.map((c) => `${c.operationId} ${c.status}`)).toEqual(['postEvent 200']);

    const keys = CLIENT_JUDGES['EVENTS-CLIENT-MON-KEYS']?.(run, {});
    expect(keys).toMatchObject({ ok: false, message: expect.stringMatching(/^1 of 1 requests break the rule: POST \/api\/v1\/events: no mon-application-key$/) });
    expect(CLIENT_JUDGES['EVENTS-CLIENT-POST-BODY']?.(run, {})).toEqual({ ok: true });
    // it sent no platform request: that rule has no evidence, and says so, rather than passing
    expect(CLIENT_JUDGES['EVENTS-CLIENT-BEARER']?.(run, {})).toEqual({ unjudged: 'the client sent no platform request, so nothing shows the rule (it sent 1 other requests)' });
  }, 5000);
});
