/**
 * The ctx-auth suite's user-agent step (`ctx-auth.authorize`) done by the browser user agent: a
 * target profile whose `agent:` is `mode: browser` with an `authorize` action opens the
 * authorization URL in headless Chromium, signs in on oidc-provider 8.8.1's development sign-in
 * page, confirms its consent page and reads code, state or error from the URL the browser was
 * sent to (the redirect URI, where nothing listens). The same cases run through the peer's
 * user-agent bridge (a form-posting client over HTTP) must get the same verdicts.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/engine/events.js';
import type { Exchange, RunResult } from '../../src/engine/model.js';
import { run } from '../../src/engine/run.js';
import { SpecgateError } from '../../src/errors.js';
import { CHROMIUM_HINT, findChromium } from '../../src/targets/browser/find-chromium.js';
import { loadProfile } from '../../src/targets/profile.js';
import { suite } from '../../suites/ctx-auth/index.js';
import { AUTHORIZE_STEPS, writeBrowserProfile } from '../fixtures/ctx-auth/peers/browser-authorize.js';
import { OIDC_CTX_PEER, launchPeer, type LaunchedPeer } from '../fixtures/ctx-auth/peers/server-peers.js';
import { builtSpecgate, declarePeer, moduleAvailable, requirePeer } from '../helpers/peer.js';
import { tempDir } from './cli.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
const built = builtSpecgate(OIDC_CTX_PEER);
const oidc = requirePeer('oidc-provider 8', moduleAvailable('oidc-provider'), 'npm install (devDependency oidc-provider@8.8.1)');
declarePeer(chromium);
declarePeer(built);
declarePeer(oidc);

/**
 * Cases whose authorization request needs the user-agent step, one browser action each: the
 * code flow with S256 PKCE through to a token, state echoed (plain and percent-encoded), and
 * refusals: an unregistered redirect URI (a 400 page, no redirect) and response_type=token
 * (an error redirect, in the fragment).
 */
const CASES = ['pkce-s256-gets-a-token', 'state-echoed-plain', 'state-echoed-encoded', 'redirect-uri-not-registered-other-path', 'authorization-error-redirected-token-response-type'];
/** The cases in which the server signs the user in and asks for consent before it redirects. */
const CONSENTED = ['pkce-s256-gets-a-token', 'state-echoed-plain', 'state-echoed-encoded'];

async function runCases(profileFile: string, events: EngineEvent[]): Promise<RunResult> {
  const profile = loadProfile(profileFile);
  const section = profile.suites['ctx-auth'];
  if (!section) throw new SpecgateError('SG_CONFIG', `${profileFile} has no ctx-auth section`);
  return run({
    modules: [suite],
    suites: ['ctx-auth'],
    sides: { 'ctx-auth': 'server' },
    targets: { 'ctx-auth': { section, label: profile.name ?? 'profile', secrets: profile.secrets } },
    cases: CASES,
    seed: 7,
    concurrency: 4,
    // a browser sign-in and consent per case: seconds each on a busy two-core machine
    caseTimeoutMs: 60_000,
    traceExchanges: true,
    sinks: [(e: EngineEvent) => void events.push(e)],
  });
}

/** Case ID -> `passed`, or the outcome with its reason and failure messages. */
function outcomes(r: RunResult): Record<string, string> {
  return Object.fromEntries(r.suites.flatMap((s) => s.cases).map((c) => [c.id, c.outcome === 'passed' ? 'passed' : `${c.outcome}: ${c.reason ?? ''} ${c.failures.map((f) => f.message).join('; ')}`]));
}

/** Requirement ID -> verdict, for every requirement of the suite. */
function verdicts(r: RunResult): Record<string, string> {
  return Object.fromEntries(r.requirements.map((v) => [v.id, v.status]));
}

/** What each case's authorize action answered (the check's `<driver>: authorize` note), by case. */
function authorizeAnswers(events: EngineEvent[]): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>();
  for (const e of events) {
    if (e.type !== 'exchange' || !isAuthorizeNote(e.exchange)) continue;
    const response = e.exchange.response;
    if (typeof response !== 'object' || response === null) continue;
    out.set(e.caseId, [...(out.get(e.caseId) ?? []), response as Record<string, unknown>]);
  }
  return out;
}

function isAuthorizeNote(x: Exchange): boolean {
  return x.kind === 'note' && /^(user agent \(\w+\)|user-agent bridge): authorize$/.test(x.summary);
}

describe.skipIf(chromium.skip || built.skip || oidc.skip)('the ctx-auth user-agent step in Chromium against oidc-provider 8.8.1', () => {
  // made in beforeAll: a skipped block still runs its body, and would leave the folder behind
  let work: { dir: string; remove(): void } | undefined;
  let profileFile = '';
  let peer: LaunchedPeer | undefined;
  const browserEvents: EngineEvent[] = [];
  const bridgeEvents: EngineEvent[] = [];
  let bridge: RunResult;
  let browser: RunResult;

  beforeAll(async () => {
    work = tempDir('specgate-browser-ctx-auth-');
    peer = await launchPeer(OIDC_CTX_PEER, [], work.dir, 'oidc');
    profileFile = join(work.dir, 'oidc-browser.json');
    writeBrowserProfile(peer.profile, profileFile, 10_000);
    // side by side: the bridge's requests go on while Chromium starts
    [bridge, browser] = await Promise.all([runCases(peer.profile, bridgeEvents), runCases(profileFile, browserEvents)]);
  }, 180_000);

  afterAll(() => {
    peer?.stop();
    work?.remove();
  });

  it('passes every selected case, each authorization done by the browser action', () => {
    // the profile has no user-agent bridge: only its browser agent can get past sign-in and consent
    const section = loadProfile(profileFile).suites['ctx-auth'];
    expect(section?.agent).toMatchObject({ mode: 'browser', actions: { authorize: AUTHORIZE_STEPS } });
    expect(section?.vars).not.toHaveProperty('agent_bridge_url');
    expect(outcomes(browser)).toEqual(Object.fromEntries(CASES.map((id) => [id, 'passed'])));
    const answers = authorizeAnswers(browserEvents);
    expect([...answers.keys()].sort()).toEqual([...CASES].sort());
    // the check's note names the driver that did it
    const drivers = new Set(browserEvents.flatMap((e) => (e.type === 'exchange' && isAuthorizeNote(e.exchange) ? [e.exchange.summary] : [])));
    expect([...drivers]).toEqual(['user agent (browser): authorize']);
    for (const id of CASES) {
      const [answer, ...more] = answers.get(id) ?? [];
      expect(more, id).toEqual([]);
      // the action's parameters come back with what its page steps captured: a result only
      // the browser user agent gives (the bridge answers without them)
      expect(answer, id).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/), query: expect.any(Object), browser_url: expect.any(String) });
      // the titles of the pages Chromium rendered and the action went through
      if (CONSENTED.includes(id)) expect(answer, id).toMatchObject({ sign_in_page: 'Sign-in', consent_page: 'Authorize', redirected: true });
      else expect(answer, id).not.toHaveProperty('sign_in_page');
    }
  });

  it('reads code, state and error where the server put them: query, fragment, or a 400 page that sent the browser nowhere', () => {
    const answer = (id: string): Record<string, unknown> => authorizeAnswers(browserEvents).get(id)?.[0] ?? {};
    const flow = answer('pkce-s256-gets-a-token');
    // the code the server issued was read from the query, and is masked in what the run reports
    // (a credential the target issued: learned when heard, never shown)
    expect(flow).toMatchObject({ code: '***', state: 'ctx-flow', error: null, redirected: true, browser_url: flow['location'] });
    expect(flow).not.toHaveProperty('status');
    expect(String(flow['location'])).toMatch(/^http:\/\/127\.0\.0\.1:7777\/callback\?code=\*\*\*(&|$)/);
    expect(answer('state-echoed-encoded')).toMatchObject({ state: 's p+a/c=e&x?y#z', redirected: true });
    expect(answer('authorization-error-redirected-token-response-type')).toMatchObject({ error: 'unsupported_response_type', state: 'err-token-response-type', code: null, redirected: true });
    expect(String(answer('authorization-error-redirected-token-response-type')['location'])).toMatch(/^http:\/\/127\.0\.0\.1:7777\/callback#error=unsupported_response_type&/);
    // refused with a page: the browser stays at the authorization URL, whose own state is no answer
    const refused = answer('redirect-uri-not-registered-other-path');
    expect(refused).toMatchObject({ status: 400, redirected: false, browser_url: refused['url'] });
    for (const field of ['location', 'code', 'state', 'error']) expect(refused, field).not.toHaveProperty(field);
  });

  it('gets the verdicts the user-agent bridge gets for the same cases', () => {
    expect(outcomes(bridge)).toEqual(Object.fromEntries(CASES.map((id) => [id, 'passed'])));
    expect(verdicts(browser)).toEqual(verdicts(bridge));
    // the bridge answered the same cases itself, with nothing a page step captured
    const bridged = authorizeAnswers(bridgeEvents);
    expect([...bridged.keys()].sort()).toEqual([...CASES].sort());
    for (const [id, [answer]] of bridged) expect(answer, id).not.toHaveProperty('browser_url');
    const judged = Object.entries(verdicts(browser)).filter(([, s]) => s === 'passed').map(([id]) => id).sort();
    expect(judged).toEqual(['CTX-SRV-AUTHZ-ERROR-REDIRECT', 'CTX-SRV-PKCE-S256', 'CTX-SRV-REDIRECT-VALIDATED', 'CTX-SRV-STATE-ECHO']);
  });
});
