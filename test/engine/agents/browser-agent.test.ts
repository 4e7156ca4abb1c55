import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserAgent } from '../../../src/engine/agents/browser-agent.js';
import { CaseStop } from '../../../src/engine/runtime/case-stop.js';
import { SpecgateError } from '../../../src/errors.js';
import { CHROMIUM_HINT, findChromium } from '../../../src/targets/browser/find-chromium.js';
import { listenOnLoopback, type Listening } from '../../../src/targets/loopback-server.js';
import { declarePeer, requirePeer } from '../../helpers/peer.js';

const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(chromium);

async function failure(p: Promise<unknown>): Promise<SpecgateError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(SpecgateError);
  return e as SpecgateError;
}

describe('a browser user agent without a browser', () => {
  it('errors the action with SG_CONFIG and says how to get Chromium', async () => {
    const viaEnv = new BrowserAgent({ actions: { approve: [{ goto: 'http://127.0.0.1:1/' }] }, env: { SPECGATE_CHROMIUM: '/nonexistent/chromium', PATH: '' } });
    const err = await failure(viaEnv.perform('approve', {}));
    expect(err.code).toBe('SG_CONFIG');
    expect(err.message).toContain(CHROMIUM_HINT);
    const viaProfile = new BrowserAgent({ actions: { approve: [{ goto: 'http://127.0.0.1:1/' }] }, chromium: '/nonexistent/chromium' });
    const named = await failure(viaProfile.perform('approve', {}));
    expect(named.code).toBe('SG_CONFIG');
    expect(named.message).toBe(`agent.chromium in the target profile names /nonexistent/chromium, which is not an executable file; ${CHROMIUM_HINT}`);
  });

  it('names the actions it has when asked for another', async () => {
    const agent = new BrowserAgent({ actions: { approve: [{ goto: 'http://127.0.0.1:1/' }] } });
    const err = await failure(agent.perform('deny', {}));
    expect(err.code).toBe('SG_CONFIG');
    expect(err.message).toContain('has no "deny" action (it has "approve")');
  });
});

describe.skipIf(chromium.skip)('a browser user agent', () => {
  let server: Listening;
  let shots: string;
  let agent: BrowserAgent;

  beforeAll(async () => {
    // /show tells which cookies the browser sent; /remember sets one; /hang never answers
    server = await listenOnLoopback(
      createServer((req, res) => {
        if (req.url === '/hang') return;
        const headers: Record<string, string> = { 'content-type': 'text/html' };
        if (req.url === '/remember') headers['set-cookie'] = 'seen=yes; Path=/';
        res.writeHead(200, headers);
        res.end(`<!doctype html><p id="cookies">[${req.headers.cookie ?? ''}]</p>`);
      }),
    );
    shots = mkdtempSync(join(tmpdir(), 'specgate-shots-'));
    agent = new BrowserAgent({
      vars: { base: server.url, who: 'target' },
      screenshotDir: shots,
      // room for a page load on a loaded machine; a step that cannot succeed waits it out
      stepTimeoutMs: 4000,
      actions: {
        visit: [
          { goto: '${base}/show' },
          { capture: { before: 'text:#cookies' } },
          { goto: '${base}/remember' },
          { goto: '${base}/show?who=${who}' },
          { capture: { after: 'text:#cookies', asked: 'url:query.who' } },
        ],
        here: [{ capture: { at: 'url:path', cookies: 'text:#cookies' } }],
        broken: [{ goto: '${base}/show' }, { click: '#missing' }],
        hang: [{ goto: '${base}/hang' }],
      },
    });
  }, 30_000);
  afterAll(async () => {
    await agent?.close();
    await server?.stop();
    if (shots) rmSync(shots, { recursive: true, force: true });
  });

  it('gives every action outside a case a context of its own: no cookie passes from one action to the next', async () => {
    const first = await agent.perform('visit', { n: 1 });
    expect(first).toEqual({ n: 1, before: '[]', after: '[seen=yes]', asked: 'target' });
    const second = await agent.perform('visit', { n: 2 });
    expect(second).toEqual({ n: 2, before: '[]', after: '[seen=yes]', asked: 'target' });
  }, 30_000);

  it("keeps a case's cookies and page from one of its actions to the next, and no other case sees them", async () => {
    const one = new CaseStop();
    const other = new CaseStop();
    const inOne = agent.forCase({ caseId: 'one', vars: {}, stop: one });
    const inOther = agent.forCase({ caseId: 'other', vars: {}, stop: other });
    try {
      expect(await inOne.perform('visit', {})).toMatchObject({ before: '[]', after: '[seen=yes]' });
      // the same page: an action that opens nothing reads where the last one left it
      expect(await inOne.perform('here', {})).toEqual({ at: '/show', cookies: '[seen=yes]' });
      // the case's second visit sends the cookie its first one got; the other case's does not
      expect(await agent.forCase({ caseId: 'one', vars: {}, stop: one }).perform('visit', {})).toMatchObject({ before: '[seen=yes]' });
      expect(await inOther.perform('visit', {})).toMatchObject({ before: '[]' });
    } finally {
      one.stop('case finished');
      other.stop('case finished');
    }
  }, 30_000);

  it("gives each lane of a case a context of its own: one lane's sign-in cookie is not another's", async () => {
    const stop = new CaseStop();
    const lane = (n: number) => agent.forCase({ caseId: 'laned', vars: {}, stop, lane: n });
    try {
      expect(await lane(0).perform('visit', {})).toMatchObject({ before: '[]', after: '[seen=yes]' });
      expect(await lane(0).perform('visit', {})).toMatchObject({ before: '[seen=yes]' });
      expect(await lane(1).perform('visit', {})).toMatchObject({ before: '[]' });
      expect(await agent.forCase({ caseId: 'laned', vars: {}, stop }).perform('visit', {})).toMatchObject({ before: '[]' });
    } finally {
      stop.stop('case finished');
    }
  }, 30_000);

  it('refuses an action of a case that has stopped', async () => {
    const stopped = new CaseStop();
    stopped.stop('case finished');
    const err = await failure(agent.forCase({ caseId: 'late', vars: {}, stop: stopped }).perform('visit', {}));
    expect(err.code).toBe('SG_CASE_TIMEOUT');
  }, 30_000);

  it('sees a case\'s variables over the target\'s, and the action\'s parameters over both', async () => {
    const forCase = agent.forCase({ caseId: 'case-1', vars: { who: 'case' } });
    expect(await forCase.perform('visit', {})).toMatchObject({ asked: 'case' });
    expect(await forCase.perform('visit', { who: 'param' })).toMatchObject({ asked: 'param' });
  }, 30_000);

  it('saves a screenshot named after the case and the action when a step fails, and says where', async () => {
    const err = await failure(agent.forCase({ caseId: 'needs/a person', vars: {} }).perform('broken', {}));
    const file = join(shots, 'needs_a_person--broken--step2.png');
    expect(err.code).toBe('SG_TARGET_PROTOCOL');
    expect(err.message).toBe(`the browser user agent could not "broken" in case needs/a person: step 2 (click "#missing") failed: no element matching "#missing" could be used within 4000 ms on ${server.url}/show; screenshot of the page: ${file}`);
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    expect(err.detail).toMatchObject({ action: 'broken', screenshot: file, step: 2 });
  }, 30_000);

  it('stops an action when the case times out', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const err = await failure(agent.perform('hang', {}, controller.signal));
    expect(err.code).toBe('SG_CASE_TIMEOUT');
    // stopped by the case, well before the step's own 4 s
    expect(Date.now() - started).toBeLessThan(3000);
  }, 30_000);

  it('performs nothing once closed', async () => {
    const own = new BrowserAgent({ vars: { base: server.url }, actions: { visit: [{ goto: '${base}/show' }, { capture: { at: 'url:path' } }] } });
    expect(await own.perform('visit', {})).toEqual({ at: '/show' });
    await own.close();
    const err = await failure(own.perform('visit', {}));
    expect(err.code).toBe('SG_INTERNAL');
  }, 30_000);
});
