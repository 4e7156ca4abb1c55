import { describe, expect, it } from 'vitest';
import { requestExchange, runTimeline } from '../../../suites/ctx-auth/checks/client-hide.js';
import { CLIENT_JUDGES, CLIENT_REQUIREMENT_IDS } from '../../../suites/ctx-auth/checks/client-judges.js';
import {
  ACCESS_1,
  ACCESS_2,
  SECRETS,
  authorize,
  call,
  evidence,
  exchange,
  metadata,
  refresh,
  register,
  runOf,
  standardFlow,
  unauthorized,
} from '../../fixtures/ctx-auth/clients/observations.js';

/**
 * What every client judge shares: a client that sent nothing is never judged, a client the
 * harness had to stop is judged on what it sent and the verdict says so, and what a report
 * shows of a run never holds a credential in clear.
 */
describe('client verdicts', () => {
  it('has a judge for every client requirement of the catalog design', () => {
    expect([...CLIENT_REQUIREMENT_IDS].sort()).toEqual(
      [
        'CTX-CLI-401-STARTS-FLOW', 'CTX-CLI-BASE-URL-ROOT', 'CTX-CLI-BEARER-EVERY', 'CTX-CLI-CODE-ONCE', 'CTX-CLI-DCR', 'CTX-CLI-DCR-BODY', 'CTX-CLI-DISCOVERY-FIRST',
        'CTX-CLI-EXPIRED-RESTART', 'CTX-CLI-FALLBACK', 'CTX-CLI-METADATA-USED', 'CTX-CLI-PKCE-CHALLENGE', 'CTX-CLI-PKCE-FRESH', 'CTX-CLI-PKCE-VERIFIER',
        'CTX-CLI-PRECONFIGURED-CLIENT', 'CTX-CLI-REDIRECT-URI', 'CTX-CLI-REDIRECT-URI-SAME', 'CTX-CLI-REFRESH', 'CTX-CLI-STATE-CHECKED', 'CTX-CLI-TOKEN-NOT-IN-QUERY',
        'CTX-CLI-TOKEN-REQUEST', 'CTX-CLI-VERSION-HEADER',
      ].sort(),
    );
  });

  it('judges nothing of a client that sent no request, saying how it ended', () => {
    const silent = runOf('standard', [], { end: { summary: 'ctx client (standard scenario) node client.js -> exit status 2', stderrTail: 'SPECGATE_CTX_SERVER_URL is not set' } });
    for (const id of CLIENT_REQUIREMENT_IDS) {
      const v = CLIENT_JUDGES[id]?.(evidence(silent));
      expect(v, id).toEqual({ unjudged: expect.stringContaining('the client sent no request in the standard scenario (ctx client (standard scenario) node client.js -> exit status 2; stderr: SPECGATE_CTX_SERVER_URL is not set)') });
    }
  });

  it('says a stopped client was stopped by the harness, in failures and in what it could not judge', () => {
    const end = { stopped: true, summary: 'ctx client (standard scenario) node client.js -> stopped by the harness', budgetMs: 2000 };
    const hung = runOf('standard', [unauthorized(), unauthorized()], { end });
    expect(CLIENT_JUDGES['CTX-CLI-401-STARTS-FLOW']?.(evidence(hung))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/started no authorization after it .*\(the client was stopped by the harness after 2 s in the standard scenario, and judged on what it had sent\)$/),
    });
    expect(CLIENT_JUDGES['CTX-CLI-PKCE-CHALLENGE']?.(evidence(hung))).toEqual({ unjudged: expect.stringMatching(/^the client sent no authorization request in the standard scenario \(the client was stopped by the harness after 2 s/) });
    // a pass stays a pass: what it sent before the stop showed the rule kept
    expect(CLIENT_JUDGES['CTX-CLI-BASE-URL-ROOT']?.(evidence(runOf('standard', standardFlow(), { end })))).toMatchObject({ ok: true });
  });

  it('passes every standard-scenario judge for a conformant session', () => {
    const run = runOf('standard', standardFlow());
    for (const id of ['CTX-CLI-BASE-URL-ROOT', 'CTX-CLI-DISCOVERY-FIRST', 'CTX-CLI-VERSION-HEADER', 'CTX-CLI-401-STARTS-FLOW', 'CTX-CLI-PKCE-CHALLENGE', 'CTX-CLI-PKCE-VERIFIER', 'CTX-CLI-REDIRECT-URI', 'CTX-CLI-REDIRECT-URI-SAME', 'CTX-CLI-TOKEN-REQUEST', 'CTX-CLI-CODE-ONCE', 'CTX-CLI-DCR', 'CTX-CLI-DCR-BODY', 'CTX-CLI-BEARER-EVERY', 'CTX-CLI-TOKEN-NOT-IN-QUERY'])
      expect(CLIENT_JUDGES[id]?.(evidence(run)), id).toMatchObject({ ok: true });
  });

  it('shows requests in reports with every credential hidden, and the schemes kept', () => {
    const run = runOf('mid-session-expiry', [unauthorized(), metadata(), register(), authorize(), exchange(), call(ACCESS_1), call(ACCESS_1, 401), refresh(), call(ACCESS_2, 200, `?access_token=${ACCESS_2}`)]);
    const shown = JSON.stringify([runTimeline(run), ...run.requests.map((r) => requestExchange(run, r))]);
    for (const s of SECRETS) expect(shown).not.toContain(s);
    expect(shown).toContain('"authorization":"Bearer <hidden>"');
    expect(shown).toContain('#9 POST /ctx?access_token=<hidden> -> 200');
    expect(shown).toContain('"location":"http://127.0.0.1:7777/callback?code=<hidden>&state=state-1"');
  });
});
