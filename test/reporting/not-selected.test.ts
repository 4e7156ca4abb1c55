/**
 * How every report shows a requirement outside the run's selection (`--part`, `--requirement`):
 * not selected, with how the run chose, never untested and never a failure.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/engine/model.js';
import { createConsoleReporter } from '../../src/reporting/console.js';
import { renderHtml } from '../../src/reporting/html.js';
import { renderJson } from '../../src/reporting/json.js';
import { renderJUnit } from '../../src/reporting/junit.js';
import { renderTap } from '../../src/reporting/tap.js';
import { eventsFor, makeRunResult } from '../fixtures/reporting/run-result.js';
import { declarePeer } from '../helpers/peer.js';
import { validate, xmllint, xpath } from './xmllint.js';

const REASON = "outside this run's selection (--part web)";

/** The reporting fixture plus one requirement of a part the run did not select. */
function withNotSelected(): RunResult {
  const run = makeRunResult();
  const oauth = run.suites[0];
  if (!oauth) throw new Error('fixture changed');
  oauth.selection = { label: '--part web', requirements: oauth.requirements.map((r) => r.id) };
  oauth.properties = { ...oauth.properties, selection: '--part web' };
  oauth.requirements.push({ suite: 'oauth', source: '000_spec.txt#B', failures: [], errored: 0, skipped: 0, id: 'OAUTH-DEVICE-POLL', level: 'MUST', text: 'The device flow polls.', status: 'not-selected', cases: [], reason: REASON });
  run.requirements = run.suites.flatMap((s) => s.requirements);
  run.summary.requirements = { ...run.summary.requirements, 'not-selected': 1, total: run.summary.requirements.total + 1 };
  return run;
}

describe('JUnit', () => {
  const xml = renderJUnit(withNotSelected());

  it('a not-selected requirement is a skipped testcase whose message starts "not selected:", and the suite names the selection', () => {
    expect(xml).toMatch(/<testcase name="OAUTH-DEVICE-POLL \(MUST\)" classname="specgate\.oauth\.requirements"[^>]*>\s*<skipped message="not selected: outside this run&apos;s selection \(--part web\)"\/>/);
    expect(xml).toContain('<property name="selection" value="--part web"/>');
  });
});

declarePeer(xmllint);

describe.skipIf(xmllint.skip)('JUnit read back with xmllint', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'specgate-ns-')), 'junit.xml');
  writeFileSync(file, renderJUnit(withNotSelected()));

  it('validates against junit-10.xsd, with the not-selected requirement skipped, never failed', () => {
    expect(validate(file)).toEqual({ ok: true, errors: [] });
    expect(xpath(file, 'string(//testsuite[@name="oauth.requirements"]/testcase[@name="OAUTH-DEVICE-POLL (MUST)"]/skipped/@message)')).toBe(`not selected: ${REASON}`);
    expect(xpath(file, 'count(//testcase[starts-with(@name,"OAUTH-DEVICE-POLL")]/failure)')).toBe('0');
  });
});

describe('JSON, TAP, HTML and the console', () => {
  it('JSON: the status, its reason, its count, and the selection of the suite (null for a suite that selected everything)', () => {
    const report = JSON.parse(renderJson(withNotSelected(), '1.0.0')) as { summary: { requirements: Record<string, number> }; requirements: { id: string; status: string; reason: string | null }[]; suites: { selection: { label: string } | null }[] };
    expect(report.requirements.find((r) => r.id === 'OAUTH-DEVICE-POLL')).toMatchObject({ status: 'not-selected', reason: REASON });
    expect(report.summary.requirements['not-selected']).toBe(1);
    expect(report.suites.map((s) => s.selection?.label ?? null)).toEqual(['--part web', null]);
  });

  it('TAP: the count in the summary comment and the selection named', () => {
    const tap = renderTap(withNotSelected());
    expect(tap).toMatch(/# requirements: \d+ \(.*not-applicable \d+, not-selected 1, stale \d+\)/);
    expect(tap).toContain('# selection: oauth --part web; the other requirements are not selected');
  });

  it('HTML: a status of its own in the matrix, the filter and the chart, and the selection in the metadata', () => {
    const html = renderHtml(withNotSelected(), { version: '9.9.9', node: 'v20.0.0' });
    expect(html).toContain('<tr class="req st-row-not-selected" data-id="OAUTH-DEVICE-POLL">');
    expect(html).toContain('data-filter="req" value="not-selected" data-count="1"');
    expect(html).toContain('not-selected 1');
    expect(html).toContain('selection of oauth');
    // a run that selected everything shows no such filter
    expect(renderHtml(makeRunResult(), { version: '9.9.9', node: 'v20.0.0' })).not.toContain('value="not-selected"');
  });

  it('console: the not-selected count under the table, apart from untested, within 80 columns', async () => {
    const chunks: string[] = [];
    const stream = Object.assign(new Writable({ write: (c: Buffer | string, _e, cb) => void (chunks.push(c.toString()), cb()) }), { isTTY: false, columns: 80 });
    const r = createConsoleReporter({ stream, color: false, verbose: false });
    for (const e of eventsFor(withNotSelected())) r.onEvent(e);
    await r.finish();
    const lines = chunks.join('').split('\n');
    expect(lines).toContain('  oauth: 1 requirement not selected (outside --part web)');
    expect(lines).toContain('    the cases covering --part web');
    for (const line of lines.slice(lines.findIndex((l) => l.startsWith('Summary ('))).filter((l) => !l.startsWith('      replay: '))) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});
