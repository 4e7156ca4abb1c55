/**
 * The oauth cases whose user-agent steps run in headless Chromium, through a forwarding gateway
 * in front of the reference platform (test/fixtures/oauth/gateway/fault-gateway.ts), run the way
 * a user runs them: `specgate run --suite oauth --side server --target <profile>`. Through the
 * clean gateway they pass; through each planted fault exactly the requirements that fault breaks
 * fail, the cases that rest on a broken rule are blocked by it, and the JSON report's exchanges
 * show why.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_HINT, findChromium } from '../../src/targets/browser/find-chromium.js';
import { OffsetClock } from '../../reference/oauth/server/clock-hook.js';
import { platformVars } from '../../reference/oauth/server/reference-target.js';
import { startOAuthServer, type RunningOAuthServer } from '../../reference/oauth/server/server.js';
import { ALTERED_STATE, ELSEWHERE_CALLBACK, startFaultGateway, type FaultGateway, type GatewayFault } from '../fixtures/oauth/gateway/fault-gateway.js';
import { declarePeer, requirePeer } from '../helpers/peer.js';
import { assertBuilt, readReport, runCli, tempDir, writeProfile, type JsonReport } from './cli.js';
import { failedAssertions } from '../helpers/verdicts.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

/** Signs in when the platform shows its sign-in form, approves when it asks, reads where the browser landed. */
const APPROVE = [
  { goto: { url: '${auth_url}/login/oauth/authorize', query: '${query}' } },
  { fill: { '#sign-in [name=login]': '${user_login}', '#sign-in [name=password]': '${user_password}' }, when: { selector: 'form#sign-in' } },
  { click: '#sign-in button[type=submit]', when: { selector: 'form#sign-in' } },
  { click: 'form#approve button', when: { selector: 'form#approve' } },
  { capture: { location: 'url', code: 'url:query.code', state: 'url:query.state', error: 'url:query.error' } },
];

/**
 * The server-side cases that act through the user agent on the authorization endpoint: state,
 * PKCE and redirects. The generated (property) cases are left out: forty or a hundred browser
 * approvals each would judge the same rules again at many times the cost.
 */
const CASES = [
  'authorize-redirects-with-code',
  'authorize-echoes-state',
  'exchange-matches-redirect-uri-of-issue',
  'redirect-omitted-uses-callback',
  'redirect-table-named-host',
  'pkce-plain-unsupported',
  'pkce-challenge-without-method',
  'pkce-method-without-challenge',
  'pkce-challenge-length',
  'pkce-s256-round-trip',
  'pkce-wrong-verifier-gets-no-token',
  'pkce-missing-verifier-gets-no-token',
];

/** The requirements each fault breaks among those CASES judge, and nothing else. */
const BREAKS: Record<GatewayFault, string[]> = {
  none: [],
  'state-altered': ['OAUTH-AUTHZ-STATE-ECHO'],
  'pkce-stripped': ['OAUTH-PKCE-CHALLENGE-LENGTH', 'OAUTH-PKCE-CHALLENGE-REQUIRED', 'OAUTH-PKCE-METHOD-REQUIRED', 'OAUTH-PKCE-S256-ONLY', 'OAUTH-PKCE-VERIFIER-MATCH', 'OAUTH-PKCE-VERIFIER-REQUIRED'],
  'redirect-elsewhere': ['OAUTH-AUTHZ-REDIRECT-CODE'],
};

/**
 * The requirements each fault leaves blocked by the rule it broke: the redirect cases assume the
 * platform sends the browser back to the application with a code, so a gateway that sends it
 * elsewhere fails that rule once and blocks the rules about which redirect_uri is accepted (the
 * port rule too: the table's refused rows passed, but a case resting on a broken rule proves
 * nothing, so its every requirement is blocked).
 */
const BLOCKS: Record<GatewayFault, { by: string; ids: string[] }> = {
  none: { by: '', ids: [] },
  'state-altered': { by: '', ids: [] },
  'pkce-stripped': { by: '', ids: [] },
  'redirect-elsewhere': { by: 'OAUTH-AUTHZ-REDIRECT-CODE', ids: ['OAUTH-REDIRECT-DEFAULT', 'OAUTH-REDIRECT-HOST', 'OAUTH-REDIRECT-PATH', 'OAUTH-REDIRECT-PORT'] },
};

type ReportCase = JsonReport['suites'][number]['cases'][number] & { exchanges: Exchange[] };
interface Exchange {
  kind: string;
  summary: string;
  request?: unknown;
  response?: unknown;
}

function casesOf(report: JsonReport): ReportCase[] {
  return report.suites.flatMap((s) => s.cases) as ReportCase[];
}

function failedCase(report: JsonReport, id: string): ReportCase {
  const c = casesOf(report).find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id} in the report`);
  expect(c.outcome, `${id}: ${c.reason ?? ''}`).toBe('failed');
  return c;
}

/** A case blocked by `by` after it ran: its own findings are kept as blockedFailures. */
function blockedCase(report: JsonReport, id: string, by: string): ReportCase & { findings: ReturnType<typeof failedAssertions> } {
  const c = casesOf(report).find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id} in the report`);
  expect([c.outcome, c.blockedBy?.requirement], `${id}: ${c.reason ?? ''}`).toEqual(['skipped', by]);
  return { ...c, findings: failedAssertions(c.blockedFailures ?? []) };
}

/** The results of the approvals a case made, as its exchanges recorded them. */
function approvals(c: ReportCase): Array<{ request: Record<string, unknown>; response: Record<string, unknown> }> {
  return c.exchanges
    .filter((e) => e.kind === 'note' && /^user agent( \(browser\))?: approve$/.test(e.summary))
    .map((e) => ({ request: (e.request ?? {}) as Record<string, unknown>, response: (e.response ?? {}) as Record<string, unknown> }));
}

function query(a: { request: Record<string, unknown> }): Record<string, unknown> {
  return (a.request['query'] ?? {}) as Record<string, unknown>;
}

/** The token exchanges of a case: the form it sent and the access_token it got (undefined: none). */
function tokenExchanges(c: ReportCase): Array<{ sent: string; token: unknown }> {
  return c.exchanges
    .filter((e) => e.kind === 'http' && /^POST \S+\/login\/oauth\/access_token -> /.test(e.summary))
    .map((e) => {
      // the report keeps both bodies as text (a preview, secrets redacted)
      const sent = String((e.request as { body?: unknown } | undefined)?.body ?? '');
      const answer = String((e.response as { body?: unknown } | undefined)?.body ?? '');
      let token: unknown;
      try {
        token = (JSON.parse(answer) as Record<string, unknown>)['access_token'];
      } catch {
        token = undefined;
      }
      return { sent, token };
    });
}

/** Reads the report for why each failure happened; a failure it cannot explain fails the test. */
const CONFIRM: Record<GatewayFault, (report: JsonReport, gateway: FaultGateway, server: RunningOAuthServer) => void> = {
  none: () => undefined,
  'state-altered': (report, gateway) => {
    const c = failedCase(report, 'authorize-echoes-state');
    expect(c.failures.map((f) => f.requirement)).toEqual(['OAUTH-AUTHZ-STATE-ECHO']);
    const [a] = approvals(c);
    expect(query(a ?? { request: {} })['state']).toBe('Zx9-state_with.odd~chars');
    expect(a?.response).toMatchObject({ state: ALTERED_STATE, code: expect.stringMatching(/.+/) });
    expect(c.failures[0]?.message).toBe(`state in the redirect: $ expected exactly "Zx9-state_with.odd~chars", got "${ALTERED_STATE}"`);
    expect(gateway.changes).toContain('altered state in the redirect to http://app.example.test/callback');
  },
  'pkce-stripped': (report, gateway, server) => {
    // the application asked with PKCE parameters the platform had to refuse, and got a code
    for (const id of ['pkce-plain-unsupported', 'pkce-challenge-without-method', 'pkce-method-without-challenge', 'pkce-challenge-length']) {
      const c = failedCase(report, id);
      const asked = approvals(c).filter((a) => query(a)['code_challenge'] !== undefined || query(a)['code_challenge_method'] !== undefined);
      expect(asked.length, id).toBeGreaterThan(0);
      for (const a of asked) expect(a.response['code'], id).toMatch(/.+/);
    }
    // a code issued without a challenge takes any verifier, or none
    const wrong = tokenExchanges(failedCase(report, 'pkce-wrong-verifier-gets-no-token'));
    expect(wrong.some((t) => t.sent.includes('code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXX') && typeof t.token === 'string')).toBe(true);
    const missing = tokenExchanges(failedCase(report, 'pkce-missing-verifier-gets-no-token'));
    expect(missing.some((t) => !t.sent.includes('code_verifier') && typeof t.token === 'string')).toBe(true);
    // and the platform never saw a challenge: the gateway took them all out
    const authorizations = server.log.since(0).filter((o) => o.path === '/login/oauth/authorize');
    expect(authorizations.length).toBeGreaterThan(0);
    expect(authorizations.filter((o) => 'code_challenge' in o.query || 'code_challenge_method' in o.query)).toEqual([]);
    expect(gateway.changes.some((l) => l.startsWith('stripped code_challenge'))).toBe(true);
  },
  'redirect-elsewhere': (report, gateway) => {
    // the root case failed; the redirect cases resting on it are blocked, their approvals kept
    const cases = [failedCase(report, 'authorize-redirects-with-code'), ...['redirect-omitted-uses-callback', 'redirect-table-named-host'].map((id) => blockedCase(report, id, 'OAUTH-AUTHZ-REDIRECT-CODE'))];
    for (const c of cases) {
      const id = c.id;
      const landed = approvals(c).map((a) => String(a.response['location']));
      expect(landed.length, id).toBeGreaterThan(0);
      expect(landed.some((l) => l.startsWith(`${ELSEWHERE_CALLBACK}?code=`)), `${id}: ${landed.join(', ')}`).toBe(true);
    }
    // every row of the table that failed is one the platform accepted and the browser was then
    // sent away from; no row the platform must refuse failed
    const table = blockedCase(report, 'redirect-table-named-host', 'OAUTH-AUTHZ-REDIRECT-CODE');
    expect(table.findings.length).toBeGreaterThan(0);
    for (const f of table.findings) {
      expect(['OAUTH-REDIRECT-HOST', 'OAUTH-REDIRECT-PATH']).toContain(f.requirement);
      expect(f.message).toMatch(/^redirect_uri \S+ .* must be accepted for callback http:\/\/app\.example\.test\/callback/);
      const landed = String((f.actual as { location?: unknown } | undefined)?.location);
      expect(landed.startsWith(`${ELSEWHERE_CALLBACK}?code=`), landed).toBe(true);
    }
    expect(gateway.changes).toContain(`redirect to http://app.example.test/callback sent to ${ELSEWHERE_CALLBACK}`);
  },
};

describe.skipIf(chromium.skip)('the browser user agent through a planted-fault gateway in front of the reference platform', () => {
  const tmp = tempDir('specgate-gateway-');
  beforeAll(() => assertBuilt());
  afterAll(() => tmp.remove());

  async function runThrough(fault: GatewayFault): Promise<{ report: JsonReport; gateway: FaultGateway; server: RunningOAuthServer; stop: () => Promise<void> }> {
    const server = await startOAuthServer({ clock: new OffsetClock(), port: 0 });
    const gateway = await startFaultGateway({ upstream: server.listenUrl, fault });
    const stop = async (): Promise<void> => {
      await gateway.stop();
      await server.stop();
    };
    try {
      const vars = { ...platformVars(server), auth_url: gateway.url, api_url: `${gateway.url}/api` };
      const section = { vars, secrets: ['client_secret', 'user_password'], agent: { mode: 'browser', stepTimeoutMs: 10_000, actions: { approve: APPROVE } } };
      const profile = writeProfile(tmp.dir, `gateway-${fault}`, { name: `reference platform behind a gateway (${fault})`, suites: { oauth: section } });
      const json = join(tmp.dir, fault, 'results.json');
      const res = await runCli(['run', '--suite', 'oauth', '--side', 'server', '--target', profile, '--case', CASES.join(','), '--concurrency', '4', '--seed', '7', '--report', `json=${json}`], { cwd: tmp.dir });
      let report: JsonReport;
      try {
        report = readReport(json);
      } catch {
        throw new Error(`the run through ${fault} wrote no JSON report (exit ${res.code}): ${res.stderr}${res.stdout}`);
      }
      expect(res.code, res.stdout).toBe(BREAKS[fault].length ? 1 : 0);
      return { report, gateway, server, stop };
    } catch (e) {
      await stop();
      throw e;
    }
  }

  for (const fault of Object.keys(BREAKS) as GatewayFault[]) {
    const breaks = BREAKS[fault];
    it(breaks.length ? `${fault} fails ${breaks.join(', ')} and nothing else` : 'the clean gateway passes every case', async () => {
      const { report, gateway, server, stop } = await runThrough(fault);
      try {
        const cases = casesOf(report);
        expect(cases.map((c) => c.id).sort()).toEqual([...CASES].sort());
        // nothing errored or was skipped but for a broken rule a case rests on: each case ran its browser steps to the end
        const { by, ids } = BLOCKS[fault];
        const unfinished = cases.filter((c) => c.outcome !== 'passed' && c.outcome !== 'failed' && !(by && c.blockedBy?.requirement === by));
        expect(unfinished.map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''}`)).toEqual([]);
        const failed = report.requirements.filter((r) => r.status === 'failed').map((r) => r.id).sort();
        expect(failed).toEqual(breaks);
        const blocked = report.requirements.filter((r) => r.status === 'blocked');
        expect(blocked.map((r) => r.id).sort()).toEqual(ids);
        for (const r of blocked) expect(r.blockedBy, r.id).toEqual([by]);
        if (fault === 'none') expect(gateway.changes).toEqual([]);
        CONFIRM[fault](report, gateway, server);
      } finally {
        await stop();
      }
    }, 240_000);
  }
});
