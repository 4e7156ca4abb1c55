/**
 * A schema failure of the events suite in plain words: the payloads case against the reference
 * with the planted fault `push-payload-without-head` says which event, which field and where,
 * not a dump of the rules every event type has; ajv's own errors stay in the failure's detail.
 */
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../../src/engine/model.js';
import { describeCaseFailures, requirementLookup } from '../../../src/reporting/failure-text.js';
import { fault } from '../../fixtures/events/faults/faults.js';
import { runEvents } from './run-events.js';

describe('the payloads case against a service whose PushEvent payloads lack head and before', () => {
  it('fails EVENTS-PLAT-PAYLOADS with the event type, the missing fields and where they are missing', async () => {
    const result = await runEvents({ options: fault('push-payload-without-head').options, cases: ['payloads'] });
    const c = result.suites[0]?.cases.find((x) => x.id === 'payloads') as CaseResult;
    expect(c.outcome).toBe('failed');
    const [failure] = c.failures;
    expect(failure?.requirement).toBe('EVENTS-PLAT-PAYLOADS');
    expect(failure?.message).toMatch(/^PushEvent payload lacks head \(at \[\d+\]\.payload\); PushEvent payload lacks before \(at \[\d+\]\.payload\)/);
    expect(failure?.message).toContain('[schema events/platform-event-payloads]');
    expect(failure?.message).not.toMatch(/\$oneOf|must match|must have required/);
    expect(failure?.detail).toMatchObject({ schema: 'events/platform-event-payloads', errors: expect.arrayContaining([expect.objectContaining({ keyword: 'required', params: { missingProperty: 'head' } })]) });
    // what the console, JUnit and HTML reports print: the requirement, then the sentence
    const text = describeCaseFailures(c, requirementLookup(result)).split('\n');
    const at = text.findIndex((l) => /^EVENTS-PLAT-PAYLOADS \(MUST\): /.test(l));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(text[at + 1]).toMatch(/^PushEvent payload lacks head/);
  });
});
