import { describe, expect, it } from 'vitest';
import { erroredCases, failedRequirements, runEvents, serverCaseIds } from './run-events.js';

describe('events suite against the reference services', () => {
  it('passes every server-side case and judges every requirement they cover', async () => {
    const r = await runEvents();
    expect(erroredCases(r)).toEqual([]);
    expect(failedRequirements(r)).toEqual([]);
    const cases = r.suites.flatMap((s) => s.cases);
    expect(cases.map((c) => c.id).sort()).toEqual(serverCaseIds().sort());
    expect(cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome}`)).toEqual([]);
    const unjudged = r.requirements.filter((v) => v.cases.length > 0 && !v.id.startsWith('EVENTS-CLIENT-') && v.status !== 'passed').map((v) => `${v.id}: ${v.status}`);
    expect(unjudged).toEqual([]);
  });
});
