/**
 * The HTML report as a person sees it: failing demo and oauth runs' reports opened in headless Chromium
 * (Debian's `chromium`, driven by playwright-core; no browser is downloaded), with DOM
 * assertions, the status filters clicked, a screenshot, a hostile target body that must stay
 * text, and a 10,000-case report (summarized as PAGE_LIMITS says) opened and filtered (timings
 * printed, not asserted).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Baseline } from '../../src/engine/baseline.js';
import type { CaseResult, RequirementVerdict, RunResult, SuiteResult } from '../../src/engine/model.js';
import { gatingOf, summarize } from '../../src/engine/verdicts.js';
import { renderHtml } from '../../src/reporting/html.js';
import { PAGE_LIMITS } from '../../src/reporting/html-sections.js';
import { declarePeer, requirePeer } from '../helpers/peer.js';
import { makeRunResult } from '../fixtures/reporting/run-result.js';
import { fromRoot } from '../../src/paths.js';
import { launch } from '../suites/oauth/process-target.js';
import { CLOCK_HOOK, assertBuilt, demoSection, reportOf, runCli, runDemo, tempDir, writeProfile } from './cli.js';
import { faultServers } from './fault-server.js';

const CHROMIUM = '/usr/bin/chromium';
const browserPeer = requirePeer('chromium', existsSync(CHROMIUM), 'apt-get install chromium');
declarePeer(browserPeer);

const tmp = tempDir('specgate-html-');
const faultServer = faultServers();
let browser: Browser | undefined;

afterAll(async () => {
  await browser?.close();
  tmp.remove();
});

/** Opens a page on a local file; any request that is not that file is refused and recorded. */
async function open(file: string): Promise<{ page: Page; foreign: string[]; ms: number }> {
  if (!browser) browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const foreign: string[] = [];
  const url = pathToFileURL(file).href;
  await page.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    foreign.push(route.request().url());
    return route.abort();
  });
  const started = performance.now();
  await page.goto(url, { waitUntil: 'load' });
  return { page, foreign, ms: performance.now() - started };
}

const visible = (page: Page, selector: string): Promise<number> =>
  // a row hidden by display:none (or inside a hidden element) has no offset parent
  page.locator(selector).evaluateAll((els) => els.filter((e) => (e as unknown as { offsetParent: unknown }).offsetParent !== null).length);

describe.skipIf(browserPeer.skip)('the HTML report in headless Chromium', () => {
  let file: string;
  beforeAll(async () => {
    assertBuilt();
    const s = await faultServer('wrong-greeting', 'bad-double', 'lossy-id', 'no-header');
    const profile = writeProfile(tmp.dir, 'faulty', { suites: { demo: demoSection(s.url, { clock: CLOCK_HOOK }) } });
    file = join(tmp.dir, 'report.html');
    const run = await runDemo(tmp.dir, ['--target', profile, '--seed', '99', '--report', `html=${file}`]);
    expect(run.code).toBe(1);
    expect(reportOf(run).summary.exitCode).toBe(1);
  }, 120_000);

  it('shows the verdict, run metadata, the matrix with clause and text, failures and reasons', async () => {
    const { page, foreign } = await open(file);
    expect(await page.textContent('#verdict')).toMatch(/^exit code 1: not conformant/);
    const meta = await page.$$eval('table.meta tr', (rows) => Object.fromEntries(rows.map((r) => [r.querySelector('th')?.textContent, r.querySelector('td')?.textContent])));
    expect(meta).toMatchObject({ seed: '99', 'gating level': 'MUST' });
    expect(meta['specgate']).toMatch(/^\d+\.\d+\.\d+/);
    expect(meta['target of demo']).toBe(`${join(tmp.dir, 'faulty.yaml')} (clock: hook)`);
    const hello = page.locator('tr.req[data-id="DEMO-HELLO"]');
    expect(await hello.locator('td').allTextContents()).toEqual(expect.arrayContaining(['DEMO-HELLO', 'failed', 'demo-spec.txt#Greetings']));
    expect(await hello.textContent()).toContain('GET /hello?name=X answers 200');
    expect(await page.locator('tr.req[data-id="DEMO-FAREWELL"] td.reason').textContent()).toBe('no case covers it');
    const failure = page.locator('.failure[data-requirement="DEMO-HELLO"]');
    expect(await failure.locator('pre.expected').textContent()).toContain('hello world');
    expect(await failure.locator('pre.actual').textContent()).toContain('hi world');
    expect(await failure.locator('details.exchange summary').textContent()).toMatch(/^exchange: GET http:\/\/127\.0\.0\.1:\d+\/hello\?name=world -> 200/);
    expect(await page.locator('.failure[data-requirement="DEMO-DOUBLE"] pre.replay').textContent()).toMatch(/specgate run .*--case double-property --seed \d+/);
    expect(await page.locator('tr.case', { hasText: 'hello-empty-name' }).textContent()).toContain('the spec does not say');
    expect(await page.locator('svg.chart rect').count()).toBeGreaterThan(2);
    expect(foreign).toEqual([]);
    await page.close();
  });

  it('the status filters hide and show rows, and say how many are shown', async () => {
    const { page } = await open(file);
    const passed = await visible(page, 'tr.req.st-row-passed');
    const failed = await visible(page, 'tr.req.st-row-failed');
    expect(passed).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
    const total = await page.locator('tr.req').count();
    expect(await page.textContent('#shown-req')).toBe(`showing ${total} of ${total}`);
    await page.click('input[data-filter="req"][value="passed"]');
    expect(await visible(page, 'tr.req.st-row-passed')).toBe(0);
    expect(await visible(page, 'tr.req.st-row-failed')).toBe(failed);
    expect(await page.textContent('#shown-req')).toBe(`showing ${total - passed} of ${total}`);
    await page.click('input[data-filter="case"][value="failed"]');
    expect(await visible(page, 'tr.case.st-row-failed')).toBe(0);
    expect(await visible(page, 'tr.case.st-row-passed')).toBeGreaterThan(0);
    await page.click('input[data-filter="req"][value="passed"]');
    expect(await visible(page, 'tr.req.st-row-passed')).toBe(passed);
    const png = join(tmp.dir, 'report.png');
    await page.screenshot({ path: png, fullPage: true });
    expect(statSync(png).size).toBeGreaterThan(1000);
    expect(readFileSync(png).subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    await page.close();
  });

  it('a failing oauth run: the broken redirect rule, its generated counterexample and replay command', async () => {
    const srv = await launch(fromRoot('dist/test/fixtures/oauth/faults/fault-server.js'), ['--fault', 'port-ignored']);
    try {
      const html = join(tmp.dir, 'oauth.html');
      const run = await runCli(
        ['run', '--suite', 'oauth', '--target', srv.profile, '--case', 'redirect-table-named-host,redirect-table-loopback,redirect-candidates-generated', '--seed', '7', '--report', `html=${html}`, '--report', `json=${join(tmp.dir, 'oauth.json')}`],
        { cwd: tmp.dir },
      );
      expect(run.code).toBe(1);
      const { page, foreign } = await open(html);
      expect(await page.textContent('#verdict')).toMatch(/^exit code 1: not conformant/);
      expect(await page.locator('tr.req[data-id="OAUTH-REDIRECT-PORT"] .badge').textContent()).toBe('failed');
      expect(await page.locator('tr.req[data-id="OAUTH-REDIRECT-HOST"] .badge').textContent()).toBe('passed');
      const generated = page.locator('.failure[data-case="redirect-candidates-generated"]');
      expect(await generated.locator('pre.replay').textContent()).toMatch(/specgate run .*--case redirect-candidates-generated --seed 7 --path \S+/);
      expect(await generated.locator('pre.counterexample').textContent()).toMatch(/"redirect_uri": "http:\/\/[^"]*:\d+\//);
      // the client secret is a declared secret of the profile: it never reaches the page
      expect(await page.content()).not.toContain('sg-web-secret-0001');
      await page.screenshot({ path: join(tmp.dir, 'oauth.png'), fullPage: true });
      expect(statSync(join(tmp.dir, 'oauth.png')).size).toBeGreaterThan(1000);
      expect(foreign).toEqual([]);
      await page.close();
    } finally {
      srv.stop();
    }
  }, 120_000);

  it('a target body holding </script> and markup stays text: nothing runs, nothing loads', async () => {
    const r = makeRunResult();
    const f = r.suites[0]?.cases.find((c) => c.failures.length)?.failures[0];
    if (!f) throw new Error('the fixture has no failure');
    f.actual = '</script><script>window.pwned = 1</script><img src="http://127.0.0.1:9/x.png" onerror="window.pwned = 2">';
    const hostile = join(tmp.dir, 'hostile.html');
    writeFileSync(hostile, renderHtml(r));
    const { page, foreign } = await open(hostile);
    expect(await page.evaluate('typeof window.pwned')).toBe('undefined');
    expect(await page.locator('pre.actual').first().textContent()).toContain('</script><script>window.pwned = 1</script>');
    expect(await page.locator('img').count()).toBe(0);
    expect(foreign).toEqual([]);
    await page.close();
  });

  it('a 10,000-case report opens and a filter click completes', async () => {
    const big = join(tmp.dir, 'big.html');
    const built = performance.now();
    const run = syntheticRun(10_000);
    writeFileSync(big, renderHtml(run));
    const renderMs = performance.now() - built;
    const { page, ms } = await open(big);
    // the page holds as many rows of each kind as it shows, and says how many passed cases it leaves out
    const cases = run.suites.flatMap((s) => s.cases);
    const passed = cases.filter((c) => c.outcome === 'passed').length;
    const shown = Math.min(passed, PAGE_LIMITS.passedCases) + Math.min(cases.length - passed, PAGE_LIMITS.otherCases);
    expect(await page.locator('tr.case').count()).toBe(shown);
    expect(await page.textContent('body')).toContain(`${passed - PAGE_LIMITS.passedCases} more passed cases not shown on this page`);
    const clicked = performance.now();
    await page.click('input[data-filter="case"][value="passed"]');
    await page.waitForFunction("document.querySelector('tr.case.st-row-passed').getBoundingClientRect().height === 0");
    const filterMs = performance.now() - clicked;
    console.log(`[html] 10,000 cases: ${(statSync(big).size / 1e6).toFixed(1)} MB, rendered in ${renderMs.toFixed(0)} ms, opened in ${ms.toFixed(0)} ms, "hide passed" applied in ${filterMs.toFixed(0)} ms`);
    expect(await page.textContent('#shown-case')).toMatch(/^showing \d+ of 10000$/);
    await page.close();
  }, 120_000);
});

/** A run of `n` cases over n/5 requirements, one case in ten failing, with bodies on the failures. */
function syntheticRun(n: number): RunResult {
  const reqs = n / 5;
  const cases: CaseResult[] = Array.from({ length: n }, (_x, i) => {
    const requirement = `BIG-REQ-${i % reqs}`;
    const fails = i % 10 === 3;
    return {
      suite: 'big',
      id: `case-${i}`,
      requirements: [requirement],
      outcome: fails ? 'failed' : i % 50 === 7 ? 'skipped' : 'passed',
      ...(i % 50 === 7 ? { reason: 'needs a clock' } : {}),
      failures: fails ? [{ requirement, message: 'body differs', expected: { n: i }, actual: { n: i + 1, note: '<b>x</b>' } }] : [],
      exchanges: [],
      durationMs: i % 97,
    };
  });
  const requirements: RequirementVerdict[] = Array.from({ length: reqs }, (_x, i) => {
    const covering = cases.filter((c) => c.requirements[0] === `BIG-REQ-${i}`);
    const failures = covering.flatMap((c) => c.failures);
    return { id: `BIG-REQ-${i}`, suite: 'big', level: i % 3 === 0 ? 'SHOULD' : 'MUST', text: `Requirement ${i} of the big spec.`, source: 'big.txt#S', status: failures.length ? 'failed' : 'passed', cases: covering.map((c) => c.id), failures, errored: 0, skipped: 0 };
  });
  const suite: SuiteResult = { name: 'big', target: 'reference', cases, requirements, durationMs: 1, properties: {} };
  return { startedAt: new Date(0).toISOString(), durationMs: 1, seed: 1, strict: false, suites: [suite], requirements, summary: summarize([suite], gatingOf(false), new Baseline()) };
}
