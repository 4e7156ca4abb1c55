import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadSuites, run as runInProcess } from '../../../src/engine/run.js';
import { fromRoot } from '../../../src/paths.js';
import { OffsetClock } from '../../../reference/ctx-auth/server/clock-hook.js';
import { ctxVars } from '../../../reference/ctx-auth/server/reference-target.js';
import { startCtxServer } from '../../../reference/ctx-auth/server/server.js';
import { suite } from '../../../suites/ctx-auth/index.js';
import { readReport, runCli, tempDir, writeProfile, type JsonReport } from '../../e2e/cli.js';
import { referenceIn, type ReferenceMode } from './reference-modes.js';

/**
 * The server side of the ctx-auth suite, in-process, against the reference server in each of its
 * server modes (and through the real command line against a server with vendor header names): every server-side case passes or, where what it judges
 * does not apply to the mode, is not applicable with a reason naming the mode; every server-side
 * requirement that applies is judged (passed). The SHOULDs a mode deliberately leaves out
 * (metadata, registration) fail at SHOULD level only, and the run is conformant at the gate.
 */

const work = tempDir('specgate-ctx-auth-');
afterAll(() => work.remove());

/** The server-side cases: those judging CTX-SRV-* requirements. */
const serverCases = (loadSuites([suite], ['ctx-auth']).suites[0]?.cases ?? []).filter((c) => c.requirements.every((r) => r.startsWith('CTX-SRV-'))).map((c) => c.id);
const serverRequirements = (loadSuites([suite], ['ctx-auth']).suites[0]?.requirements ?? []).filter((r) => r.id.startsWith('CTX-SRV-') && !r.excluded).map((r) => r.id);

async function run(label: string, extra: string[], env: Record<string, string> = {}): Promise<{ report: JsonReport; code: number | null; out: string }> {
  const file = join(work.dir, `${label}.json`);
  const r = await runCli(['run', '--suite', 'ctx-auth', '--side', 'server', '--seed', '7', '--runs', '6', '--no-color', '--report', `json=${file}`, ...extra], { cwd: fromRoot(), env });
  return { report: readReport(file), code: r.code, out: `${r.stdout}${r.stderr}` };
}

/** The mode a reason names: why a case does not apply to a server in that mode. */
const WITH_METADATA = 'the server publishes authorization server metadata';
const WITHOUT_METADATA = 'the server publishes no authorization server metadata';
const WITH_REGISTRATION = 'the server offers dynamic client registration';
const WITHOUT_REGISTRATION = 'the server offers no dynamic client registration';
const NO_CLIENT_CREDENTIALS = 'the server does not advertise the client_credentials grant';
const NOT_DELEGATING = 'the target profile names no third-party authorization server';

/** The delegation requirements: not applicable to a server the profile does not say delegates. */
const DELEGATION = ['REDIRECT', 'EXCHANGE', 'OWN-TOKEN', 'STATUS', 'MAPPING', 'EXPIRY', 'REDIRECT-URIS', 'FAILURE'].map((r) => `CTX-SRV-DELEGATION-${r}`);

/**
 * What a mode leaves out: the requirements not applicable there, the reasons its not-applicable
 * cases may give (each names the mode), and the SHOULDs the mode fails by design.
 */
const EXPECTED: Record<ReferenceMode, { notApplicable: string[]; reasons: string[]; failedShould: string[] }> = {
  default: { notApplicable: ['CTX-SRV-FALLBACK-ENDPOINTS', 'CTX-SRV-FALLBACK-REFRESH', 'CTX-SRV-NO-DCR-CLIENT', ...DELEGATION], reasons: [WITH_METADATA, WITH_REGISTRATION, NOT_DELEGATING], failedShould: [] },
  'custom-paths': { notApplicable: ['CTX-SRV-FALLBACK-ENDPOINTS', 'CTX-SRV-FALLBACK-REFRESH', 'CTX-SRV-NO-DCR-CLIENT', ...DELEGATION], reasons: [WITH_METADATA, WITH_REGISTRATION, NOT_DELEGATING], failedShould: [] },
  'no-metadata': {
    notApplicable: ['CTX-SRV-METADATA-SHAPE', 'CTX-SRV-METADATA-ISSUER', 'CTX-SRV-METADATA-S256', 'CTX-SRV-CLIENT-CREDENTIALS', 'CTX-SRV-NO-DCR-CLIENT', ...DELEGATION],
    reasons: [WITHOUT_METADATA, WITH_REGISTRATION, NO_CLIENT_CREDENTIALS, NOT_DELEGATING],
    failedShould: ['CTX-SRV-METADATA'],
  },
  'no-registration': {
    // the registration cases of CTX-SRV-REDIRECT-SCHEME do not apply either; its authorization case judges it
    notApplicable: ['CTX-SRV-FALLBACK-ENDPOINTS', 'CTX-SRV-FALLBACK-REFRESH', 'CTX-SRV-DCR-VALID', 'CTX-SRV-DCR-INVALID', ...DELEGATION],
    reasons: [WITH_METADATA, WITHOUT_REGISTRATION, NOT_DELEGATING],
    failedShould: ['CTX-SRV-DCR'],
  },
  // every flow case goes through the played third party; the delegation rules are judged
  delegation: { notApplicable: ['CTX-SRV-FALLBACK-ENDPOINTS', 'CTX-SRV-FALLBACK-REFRESH', 'CTX-SRV-NO-DCR-CLIENT'], reasons: [WITH_METADATA, WITH_REGISTRATION], failedShould: [] },
};

describe('ctx-auth server side against the reference server, through the command line', () => {
  it('finds the server-side cases and requirements', () => {
    expect(serverCases.length).toBeGreaterThan(40);
    expect(serverRequirements.length).toBeGreaterThan(30);
  });

  describe.each(Object.keys(EXPECTED) as ReferenceMode[])('mode %s', (mode) => {
    it('passes every case that applies, and judges every requirement that applies', async () => {
      const report = await runInProcess({ modules: [{ ...suite, reference: referenceIn(mode) }], suites: ['ctx-auth'], targets: {}, sides: { 'ctx-auth': 'server' }, seed: 7, runs: 6 });
      const code = report.summary.exitCode;
      const want = EXPECTED[mode];
      const cases = report.suites.flatMap((s) => s.cases);
      const out = cases.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''} ${c.failures.map((f) => `${f.requirement}: ${f.message}`).join(' | ')}`).join('\n');
      expect(cases.map((c) => c.id).sort()).toEqual([...serverCases].sort());
      const status = new Map(report.requirements.map((r) => [r.id, r]));
      for (const id of serverRequirements) {
        const verdict = status.get(id);
        const expected = want.notApplicable.includes(id) ? 'not-applicable' : want.failedShould.includes(id) ? 'failed' : 'passed';
        expect(`${id}: ${verdict?.status ?? 'absent'}`, out).toBe(`${id}: ${expected}`);
      }
      // a case that did not pass either judged a SHOULD the mode leaves out, or does not apply, saying why
      for (const c of cases.filter((x) => x.outcome !== 'passed')) {
        const judged = suiteCase(c.id);
        if (c.outcome === 'failed') {
          expect(judged.every((r) => want.failedShould.includes(r)), `${c.id}: ${JSON.stringify(c.failures)}`).toBe(true);
          continue;
        }
        expect(c.outcome, `${c.id}: ${c.reason ?? ''}`).toBe('skipped');
        expect((c as { notApplicable?: boolean }).notApplicable, c.id).toBe(true);
        expect(want.reasons.some((phrase) => (c.reason ?? '').startsWith(phrase)), `${c.id}: ${c.reason ?? ''}`).toBe(true);
      }
      expect(code, out).toBe(0);
    }, 120_000);
  });
});

describe('ctx-auth server side against a server with vendor header names, as an external target', () => {
  it('sends the mapped header names, moves time by the clock hook, and passes', async () => {
    const server = await startCtxServer({ clock: new OffsetClock(), hooks: true, headerNames: { session: 'Mcp-Session-Id', version: 'MCP-Protocol-Version' } });
    try {
      const profile = writeProfile(work.dir, 'vendor-headers', {
        name: 'reference with vendor header names',
        suites: {
          'ctx-auth': {
            vars: ctxVars(server),
            headers: { 'CTX-Protocol-Version': 'MCP-Protocol-Version', 'CTX-Session-Id': 'Mcp-Session-Id' },
            clock: { advance: { method: 'POST', url: `${server.origin}/__specgate/clock/advance`, json: { ms: '${ms}' } } },
          },
        },
      });
      const { report, code, out } = await run('vendor-headers', ['--target', profile]);
      const cases = report.suites.flatMap((s) => s.cases);
      expect(cases.filter((c) => c.outcome !== 'passed' && !(c as { notApplicable?: boolean }).notApplicable).map((c) => `${c.id}: ${c.outcome} ${c.reason ?? ''}`), out).toEqual([]);
      expect(cases.find((c) => c.id === 'resource-expired-token')?.outcome).toBe('passed');
      expect(code, out).toBe(0);
      const seen = server.observations();
      // discovery sends the version header under the target's name, and never the neutral one
      const discovery = seen.filter((o) => o.path === '/.well-known/oauth-authorization-server');
      expect(discovery.length).toBeGreaterThan(0);
      for (const o of discovery) {
        expect(o.headers['mcp-protocol-version']).toBe('2025-03-26');
        expect(o.headers['ctx-protocol-version']).toBeUndefined();
      }
      // the session id the server answered under its own name went back under that name
      const sessionIds = seen.map((o) => o.headers['mcp-session-id']).filter((v): v is string => typeof v === 'string' && v !== '');
      expect(sessionIds.length).toBeGreaterThan(0);
      expect(seen.some((o) => o.headers['ctx-session-id'] !== undefined)).toBe(false);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

/** The requirements a case lists. */
function suiteCase(id: string): string[] {
  return loadSuites([suite], ['ctx-auth']).suites[0]?.cases.find((c) => c.id === id)?.requirements ?? [];
}
