import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/engine/model.js';
import { esc } from '../../src/reporting/html-escape.js';
import { renderHtml } from '../../src/reporting/html.js';
import { PAGE_LIMITS } from '../../src/reporting/html-sections.js';
import { NASTY, REPLAY, makeRunResult } from '../fixtures/reporting/run-result.js';

const PAYLOAD = '</script><script>window.pwned = 1</script><img src=x onerror="alert(1)">';

/** The fixture run with a target answer that tries to end the page's script and load an image. */
function hostile(): RunResult {
  const r = makeRunResult();
  const c = r.suites[0]?.cases.find((x) => x.failures.length > 0);
  const f = c?.failures[0];
  if (!f) throw new Error('the fixture has no failure');
  f.actual = { body: PAYLOAD };
  f.message = PAYLOAD;
  return r;
}

describe('renderHtml', () => {
  const html = renderHtml(hostile(), { version: '9.9.9', node: 'v20.0.0' });

  it('opens on the failures: root failures link to them, and they come before the requirement table', () => {
    const failures = html.indexOf('<h2 id="failures">');
    expect(failures).toBeGreaterThan(0);
    expect(html.indexOf('<h2>Root failures')).toBeLessThan(failures);
    expect(failures).toBeLessThan(html.indexOf('<h2>Requirements</h2>'));
    const links = [...html.matchAll(/<a href="#(failure-[^"]+)">/g)].map((m) => m[1] as string);
    expect(links.length).toBeGreaterThan(0);
    for (const id of links) expect(html).toContain(`id="${id}"`);
  });

  it('shows each failure\'s request and answer, with a curl line for an HTTP one', () => {
    expect(html).toContain('<pre class="exchange-short">Request: ');
    expect(html).toMatch(/<div>try<\/div><pre class="curl"><code>curl -sS -i /);
  });

  it('is one self-contained page: one inline script and style, nothing fetched', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(html.match(/<style\b/g)).toHaveLength(1);
    // no element loads anything (escaped target text may say "src=", as text)
    // links within the page (root failures to their failures) are all it has
    expect(html).not.toMatch(/<[a-z][^<>]*\s(src|href)\s*=\s*(?!["']?#)/i);
    expect(html).toContain("default-src 'none'");
  });

  it('escapes what a target sent: a body holding </script> stays text', () => {
    expect(html).not.toContain(PAYLOAD);
    expect(html).not.toContain('<img');
    expect(html).toContain(esc(PAYLOAD));
    expect(html.indexOf('</script>')).toBe(html.lastIndexOf('</script>'));
    // control characters and a lone surrogate become U+FFFD, markup is escaped
    expect(esc(NASTY)).toBe('&lt;&amp;&gt;&quot;&#39; nul\uFFFD bell\uFFFD emoji😀 lone\uFFFD cdata]]&gt; end');
  });

  it('shows the run metadata, the verdict and the replay command', () => {
    const r = makeRunResult();
    expect(html).toContain('<th>specgate</th><td>9.9.9</td>');
    expect(html).toContain('<th>Node.js</th><td>v20.0.0</td>');
    expect(html).toContain(`<th>seed</th><td>${r.seed}</td>`);
    expect(html).toContain(`exit code ${r.summary.exitCode}: ${esc(r.summary.verdict)}`);
    expect(html).toContain(esc(REPLAY));
  });

  it('lists every requirement in the matrix with its clause and text, and every case', () => {
    const r = makeRunResult();
    for (const v of r.requirements) {
      expect(html).toContain(`data-id="${esc(v.id)}"`);
      expect(html).toContain(`<code>${esc(v.source)}</code>`);
    }
    const rows = html.match(/<tr class="case /g) ?? [];
    expect(rows).toHaveLength(r.suites.reduce((n, s) => n + s.cases.length, 0));
  });

  it('writes a filter checkbox per status with the count the summary has', () => {
    const r = makeRunResult();
    expect(html).toContain(`data-filter="req" value="failed" data-count="${r.summary.requirements.failed}"`);
    expect(html).toContain(`data-filter="case" value="skipped" data-count="${r.summary.cases.skipped}"`);
  });

  it('of a huge run, shows what a browser can open and says what it leaves out', () => {
    const r = makeRunResult();
    const suite = r.suites[0];
    const passed = suite?.cases.find((c) => c.outcome === 'passed');
    const failed = suite?.cases.find((c) => c.failures.length > 0);
    const verdict = r.requirements[0];
    if (!suite || !passed || !failed || !verdict) throw new Error('the fixture lacks a passed case, a failed case or a requirement');
    const n = 3 * PAGE_LIMITS.passedCases;
    const failures = 2 * PAGE_LIMITS.failures;
    suite.cases = [
      ...Array.from({ length: n }, (_x, i) => ({ ...passed, id: `passed-${i}` })),
      ...Array.from({ length: failures }, (_x, i) => ({ ...failed, id: `failed-${i}`, failures: [failed.failures[0] as (typeof failed.failures)[number]] })),
    ];
    verdict.cases = suite.cases.map((c) => c.id);
    const page = renderHtml(r);
    const allPassed = r.suites.flatMap((s) => s.cases).filter((c) => c.outcome === 'passed').length;
    expect(page.match(/<tr class="case st-row-passed/g)?.length).toBeLessThanOrEqual(PAGE_LIMITS.passedCases);
    expect(page).toContain(`${allPassed - PAGE_LIMITS.passedCases} more passed cases not shown on this page`);
    expect(page.match(/<div class="failure/g)?.length).toBe(PAGE_LIMITS.failures);
    const allFailures = r.suites.flatMap((s) => s.cases).reduce((k, c) => k + c.failures.length, 0);
    expect(page).toContain(`${allFailures - PAGE_LIMITS.failures} more failures not shown on this page: the JSON report`);
    expect(page).toContain(`and ${verdict.cases.length - PAGE_LIMITS.casesPerRequirement} more`);
    expect(page.length).toBeLessThan(4 * 1024 * 1024);
  });
});
