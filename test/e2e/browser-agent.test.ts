/**
 * The oauth cases whose user-agent steps need a person (approve an authorization, enter a user
 * code and authorize or cancel) run against the reference platform started on its own, with a
 * target profile whose agent is `mode: browser`: headless Chromium signs in, presses the
 * buttons of the platform's real HTML pages and reads the code from the URL it was sent to.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/engine/events.js';
import type { RunResult } from '../../src/engine/model.js';
import { run } from '../../src/engine/run.js';
import { CHROMIUM_HINT, findChromium } from '../../src/targets/browser/find-chromium.js';
import { loadProfile } from '../../src/targets/profile.js';
import { OffsetClock } from '../../reference/oauth/server/clock-hook.js';
import { platformVars } from '../../reference/oauth/server/reference-target.js';
import { startOAuthServer, type RunningOAuthServer } from '../../reference/oauth/server/server.js';
import { suite } from '../../suites/oauth/index.js';
import { OAUTH_BROWSER_ACTIONS } from '../fixtures/oauth/browser-actions.js';
import { declarePeer, requirePeer } from '../helpers/peer.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

/** Signs in when the platform shows its sign-in form (a case's first action does). */
const signIn = [
  { fill: { '#sign-in [name=login]': '${user_login}', '#sign-in [name=password]': '${user_password}' }, when: { selector: 'form#sign-in' } },
  { click: '#sign-in button[type=submit]', when: { selector: 'form#sign-in' } },
];

/** The actions the CASES below have the user agent perform. */
const PERFORMED = ['approve', 'enter-user-code', 'approve-device', 'deny-device'];

const CASES = [
  'authorize-redirects-with-code',
  'authorize-echoes-state',
  'authorize-unknown-client-issues-no-code',
  'exchange-matches-redirect-uri-of-issue',
  'code-expires-after-ten-minutes',
  'api-user-with-bearer-token',
  'device-authorized-returns-token',
  'device-cancel-denies',
  'device-cancelled-user-code-is-spent',
  'device-user-code-expires-after-900-seconds',
  // fifty-one user codes entered in one case, within the default case limit: the case's actions
  // share its context and page, and no step waits by the clock
  'user-code-submissions-per-hour',
];

function writeProfile(dir: string, vars: Record<string, unknown>, actions: Record<string, unknown>, stepTimeoutMs = 10_000): string {
  const file = join(dir, 'browser-profile.yaml');
  const section = {
    vars,
    secrets: ['client_secret', 'user_password'],
    clock: { advance: { method: 'POST', url: '${auth_url}/__specgate/clock/advance', json: { ms: '${ms}' } } },
    agent: { mode: 'browser', stepTimeoutMs, actions },
  };
  // JSON is YAML
  writeFileSync(file, JSON.stringify({ name: 'reference platform, driven in Chromium', suites: { oauth: section } }, null, 2));
  return file;
}

async function runWith(profileFile: string, cases: string[], events: EngineEvent[], reportDir?: string): Promise<RunResult> {
  const profile = loadProfile(profileFile);
  const section = profile.suites['oauth'];
  if (!section) throw new Error('the profile has no oauth section');
  return run({
    modules: [suite],
    suites: ['oauth'],
    targets: { oauth: { section, label: profile.name ?? 'profile', secrets: profile.secrets } },
    cases,
    seed: 11,
    concurrency: 4,
    caseTimeoutMs: 60_000,
    traceExchanges: true,
    sinks: [(e: EngineEvent) => void events.push(e)],
    ...(reportDir !== undefined ? { reportDir } : {}),
  });
}

describe.skipIf(chromium.skip)('a browser user agent against the reference platform', () => {
  let server: RunningOAuthServer;
  let dir: string;

  beforeAll(async () => {
    server = await startOAuthServer({ clock: new OffsetClock(), port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'specgate-browser-agent-'));
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes the web-flow and device-flow cases that need a person, every action done in Chromium', async () => {
    const events: EngineEvent[] = [];
    const result = await runWith(writeProfile(dir, platformVars(server), OAUTH_BROWSER_ACTIONS), CASES, events);
    const cases = result.suites.flatMap((s) => s.cases);
    const outcomes = Object.fromEntries(cases.map((c) => [c.id, c.outcome === 'passed' ? 'passed' : `${c.outcome}: ${c.reason ?? ''} ${c.failures.map((f) => f.message).join('; ')}`]));
    expect(outcomes).toEqual(Object.fromEntries(CASES.map((id) => [id, 'passed'])));
    const performed = new Set(events.flatMap((e) => (e.type === 'exchange' && e.exchange.kind === 'note' ? [e.exchange.summary] : [])));
    for (const action of PERFORMED) expect(performed).toContain(`user agent (browser): ${action}`);
  }, 180_000);

  it('a page that is not what the steps expect errors the case, naming the step and a screenshot of the page saved beside the report', async () => {
    const broken = { approve: [{ goto: { url: '${auth_url}/login/oauth/authorize', query: '${query}' } }, ...signIn, { click: 'form#authorize-now button' }] };
    const reports = join(dir, 'reports');
    // the steps before the missing button sign in for real: seconds each on a busy machine
    const result = await runWith(writeProfile(dir, platformVars(server), broken, 5000), ['authorize-redirects-with-code'], [], reports);
    const only = result.suites[0]?.cases[0];
    expect(only?.outcome).toBe('errored');
    const reason = only?.reason ?? '';
    expect(reason).toMatch(/the browser user agent could not "approve".*step 4 \(click "form#authorize-now button"\) failed: no element matching "form#authorize-now button" could be used within 5000 ms on \S+; screenshot of the page: \S+\.png$/);
    const shot = /screenshot of the page: (\S+\.png)$/.exec(reason)?.[1] ?? '';
    expect(shot.startsWith(join(reports, 'screenshots', 'oauth', 'authorize-redirects-with-code--approve--step'))).toBe(true);
    try {
      expect(readFileSync(shot).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    } finally {
      rmSync(shot, { force: true });
    }
  }, 60_000);
});
