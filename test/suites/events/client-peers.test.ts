import { MON_API_KEY, MON_APP_KEY } from '../../../reference/events/model/monitor-keys.js';
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { pool } from '../../../src/engine/run-suite.js';
import { fromRoot } from '../../../src/paths.js';
import { declarePeer, moduleAvailable, requirePeer } from '../../helpers/peer.js';
import { CLIENT_CASE_REQUIREMENTS, CLIENT_CASES, clientStatuses, nodeCommand, runEventsClientCases, type EventsCliRun } from '../../fixtures/events/clients/cli.js';

/**
 * The client side of the events suite against the published client library
 * @datadog/datadog-api-client 1.64.0, driven by test/fixtures/events/peers/datadog-client.ts:
 * v1 createEvent, IP ranges, v1 listEvents paged by the last timestamp as its docs say, and v2
 * listEventsWithPagination. suites/events/FINDINGS.md has what a launch shows and the commands
 * that reproduce it. Two launches: the library as shipped (its vendor's key header names), and
 * with the key headers renamed to the spec's names in its transport. The library has no
 * platform events operation, so the platform requirements have no evidence either way.
 */
const DATADOG_CLIENT = fromRoot('dist', 'test', 'fixtures', 'events', 'peers', 'datadog-client.js');
const datadog = requirePeer(
  '@datadog/datadog-api-client and its launcher',
  moduleAvailable('@datadog/datadog-api-client') && existsSync(DATADOG_CLIENT) && existsSync(fromRoot('dist', 'suites', 'events', 'index.js')),
  'npm install (devDependency @datadog/datadog-api-client@1.64.0), then npm run build',
);
declarePeer(datadog);

/** The platform requirements (part H): the library sends no platform request, so each case errors and each stays untested. */
const PLATFORM_CASES: Readonly<Record<string, RegExp>> = {
  'client-bearer': /the client sent no platform request, so nothing shows the rule/,
  'client-accept': /the client sent no platform request, so nothing shows the rule/,
  'client-version-header': /the client sent no platform request, so nothing shows the rule/,
  'client-per-page-max': /the client sent no platform request, so nothing shows the rule/,
  'client-if-none-match': /the client polled no platform stream again after a 200 with an ETag/,
  'client-poll-interval': /the client polled no platform stream again after an answer with its first X-Poll-Interval/,
  'client-poll-interval-grows': /the client polled no platform stream again after the X-Poll-Interval grew/,
};

/** The monitoring requirements the library gives no evidence for: it reads no service dependencies. */
const UNUSED_MONITORING_CASES: Readonly<Record<string, RegExp>> = {
  'client-deps-env': /the client sent no dependency request to the monitoring API, so nothing shows the rule/,
};

/** Requirement -> status: the platform ones and those of the dependencies untested, the others as given. */
function statuses(monitoring: Record<string, string>): Record<string, string> {
  const unused = Object.keys({ ...PLATFORM_CASES, ...UNUSED_MONITORING_CASES }).map((c) => [CLIENT_CASE_REQUIREMENTS[c] ?? c, 'untested']);
  return { ...Object.fromEntries(unused), ...monitoring };
}

function caseOf(run: EventsCliRun, id: string): { outcome: string; reason?: string | undefined } | undefined {
  return run.report.suites.flatMap((s) => s.cases).find((c) => c.id === id);
}

function monKeysFailures(run: EventsCliRun): { message: string; actual?: unknown }[] {
  return run.report.requirements.find((v) => v.id === 'EVENTS-CLIENT-MON-KEYS')?.failures ?? [];
}

describe.skipIf(datadog.skip)('@datadog/datadog-api-client 1.64.0 judged by the events client-side cases', () => {
  let neutral: EventsCliRun;
  let vendor: EventsCliRun;

  beforeAll(async () => {
    await pool(['neutral', 'vendor'], 2, async (mode) => {
      if (mode === 'neutral') neutral = await runEventsClientCases({ client: nodeCommand(DATADOG_CLIENT) });
      else vendor = await runEventsClientCases({ client: nodeCommand(DATADOG_CLIENT, '--vendor-headers') });
    });
  }, 120_000);

  describe('with the key headers renamed in its transport', () => {
    it('passes post body, v1 paging and v2 cursor, fails the keys rule, and leaves the platform untested', () => {
      expect(clientStatuses(neutral.report)).toEqual(
        statuses({
          'EVENTS-CLIENT-MON-KEYS': 'failed',
          'EVENTS-CLIENT-POST-BODY': 'passed',
          'EVENTS-CLIENT-V1-PAGING': 'passed',
          'EVENTS-CLIENT-V2-CURSOR-PARAMS': 'passed',
        }),
      );
      expect(neutral.exitCode).toBe(1);
    });

    it('fails the keys rule on the post alone: createEvent sends the API key and no application key', () => {
      const failures = monKeysFailures(neutral);
      expect(failures).toHaveLength(1);
      // the post, then 2 v1 pages (1000 events, then the rest) and the v2 walk's pages: every read carries both keys
      expect(failures[0]?.message).toMatch(/^1 of \d+ requests break the rule: POST \/api\/v1\/events: no mon-application-key$/);
      expect(failures[0]?.actual).toEqual(['POST /api/v1/events']);
    });
  });

  describe('as shipped, with its vendor key header names', () => {
    it('fails the keys rule; the post body still passes; nothing else has evidence', () => {
      expect(clientStatuses(vendor.report)).toEqual(
        statuses({
          'EVENTS-CLIENT-MON-KEYS': 'failed',
          'EVENTS-CLIENT-POST-BODY': 'passed',
          'EVENTS-CLIENT-V1-PAGING': 'untested',
          'EVENTS-CLIENT-V2-CURSOR-PARAMS': 'untested',
        }),
      );
      expect(vendor.exitCode).toBe(1);
    });

    it('names the post, the v1 list and the v2 list as lacking both neutral key headers', () => {
      const failures = monKeysFailures(vendor);
      expect(failures).toHaveLength(1);
      expect(failures[0]?.message).toMatch(/^3 of 3 requests break the rule: POST \/api\/v1\/events: no mon-api-key and no mon-application-key; GET \/api\/v1\/events\?start=\d+&end=\d+: no mon-api-key and no mon-application-key; GET \/api\/v2\/events\?\S+: no mon-api-key and no mon-application-key$/);
    });

    it('shows the keys it sent under its own header names by name only: the report holds no key value', () => {
      const text = JSON.stringify(vendor.report);
      expect(text).toMatch(/"dd-api-key":"<redacted>"/);
      for (const key of [MON_API_KEY, MON_APP_KEY]) expect(text).not.toContain(key);
    });

    it('has nothing to judge of v1 paging and v2 cursor: every read was refused, so no page came back to follow (skipped, never passed)', () => {
      expect(caseOf(vendor, 'client-v1-paging')).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/^nothing to judge: .*listed no v1 page of 1000 events and then another/) });
      expect(caseOf(vendor, 'client-v2-cursor-params')).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/^nothing to judge: .*sent no v2 request with page\[cursor\]/) });
    });
  });

  it('has nothing to judge in every platform case and the dependency case in both launches, saying what the client never did (skipped, not passed)', () => {
    for (const run of [neutral, vendor]) {
      const cases = run.report.suites.flatMap((s) => s.cases);
      expect(cases.map((c) => c.id).sort()).toEqual([...CLIENT_CASES].sort());
      for (const [id, reason] of Object.entries({ ...PLATFORM_CASES, ...UNUSED_MONITORING_CASES })) {
        expect(caseOf(run, id)?.outcome, id).toBe('skipped');
        expect(caseOf(run, id)?.reason ?? '', id).toMatch(reason);
      }
    }
  });
});
