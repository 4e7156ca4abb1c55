/**
 * How every report shows what does not apply to a run: a requirement of the side the run did
 * not judge, and a case that ended not applicable (`ctx.notApplicable`) with its requirement.
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

/** The reporting fixture plus a run of the server side: one client requirement, one case that found no device flow. */
function withNotApplicable(): RunResult {
  const run = makeRunResult();
  const oauth = run.suites[0];
  if (!oauth) throw new Error('fixture changed');
  oauth.sides = ['server'];
  oauth.properties = { ...oauth.properties, side: 'server' };
  oauth.cases.push({ suite: 'oauth', id: 'device-flow-offered', requirements: ['OAUTH-DEVICE-FLOW'], outcome: 'skipped', notApplicable: true, reason: 'the platform has no device flow', failures: [], exchanges: [], durationMs: 3 });
  const base = { suite: 'oauth', source: '000_spec.txt#B', failures: [], errored: 0, skipped: 0 };
  oauth.requirements.push(
    { ...base, id: 'OAUTH-CLIENT-STATE', level: 'MUST', side: 'client', text: 'The application sends an unguessable state.', status: 'not-applicable', cases: [], reason: 'this run judges the server side only' },
    { ...base, id: 'OAUTH-DEVICE-FLOW', level: 'SHOULD', side: 'server', text: 'The device flow answers.', status: 'not-applicable', cases: ['device-flow-offered'], reason: 'the platform has no device flow', skipped: 1 },
  );
  run.requirements = run.suites.flatMap((s) => s.requirements);
  run.summary.requirements = { ...run.summary.requirements, 'not-applicable': 2, total: run.summary.requirements.total + 2 };
  run.summary.cases = { ...run.summary.cases, skipped: run.summary.cases.skipped + 1, total: run.summary.cases.total + 1 };
  return run;
}

describe('JUnit', () => {
  const xml = renderJUnit(withNotApplicable());

  it('a not-applicable requirement is a skipped testcase whose message starts "not applicable:", with the reason', () => {
    expect(xml).toMatch(/<testcase name="OAUTH-CLIENT-STATE \(MUST\)" classname="specgate\.oauth\.requirements"[^>]*>\s*<skipped message="not applicable: this run judges the server side only"\/>/);
    expect(xml).toMatch(/<testcase name="OAUTH-DEVICE-FLOW \(SHOULD\)"[^>]*>\s*<skipped message="not applicable: the platform has no device flow"\/>/);
  });

  it('a case that ended not applicable is skipped with "not applicable: <reason>"', () => {
    expect(xml).toMatch(/<testcase name="device-flow-offered \[OAUTH-DEVICE-FLOW\]"[^>]*>\s*<skipped message="not applicable: the platform has no device flow"\/>/);
  });

  it('names the side the run judged in the suite properties', () => {
    expect(xml).toContain('<property name="side" value="server"/>');
  });
});

declarePeer(xmllint);

describe.skipIf(xmllint.skip)('JUnit read back with xmllint', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'specgate-na-')), 'junit.xml');
  writeFileSync(file, renderJUnit(withNotApplicable()));

  it('validates against junit-10.xsd and counts not-applicable requirements as skipped', () => {
    expect(validate(file)).toEqual({ ok: true, errors: [] });
    expect(xpath(file, 'string(//testsuite[@name="oauth.requirements"]/testcase[@name="OAUTH-CLIENT-STATE (MUST)"]/skipped/@message)')).toBe('not applicable: this run judges the server side only');
    expect(xpath(file, 'string(//testsuite[@name="oauth.requirements"]/@skipped)')).toBe(xpath(file, 'count(//testsuite[@name="oauth.requirements"]/testcase/skipped)'));
    // never a failure: the failures of the requirement suite are only the fixture's own
    expect(xpath(file, 'count(//testcase[starts-with(@name,"OAUTH-CLIENT-STATE")]/failure)')).toBe('0');
  });
});

describe('JSON', () => {
  const report = JSON.parse(renderJson(withNotApplicable(), '1.0.0')) as {
    summary: { requirements: Record<string, number> };
    requirements: { id: string; status: string; side: string | null; reason: string | null }[];
    suites: { name: string; sides: string[] | null; cases: { id: string; outcome: string; notApplicable: boolean; reason: string | null }[] }[];
  };

  it('writes the status, the side and the reason of each requirement, and counts them apart', () => {
    expect(report.requirements.find((r) => r.id === 'OAUTH-CLIENT-STATE')).toMatchObject({ status: 'not-applicable', side: 'client', reason: 'this run judges the server side only' });
    expect(report.requirements.find((r) => r.id === 'OAUTH-DEVICE-SLOW-DOWN')?.side).toBeNull();
    expect(report.summary.requirements['not-applicable']).toBe(2);
  });

  it('writes the sides a suite judged (null for every side) and marks not-applicable cases', () => {
    expect(report.suites.map((s) => s.sides)).toEqual([['server'], null]);
    const oauth = report.suites[0];
    expect(oauth?.cases.find((c) => c.id === 'device-flow-offered')).toMatchObject({ outcome: 'skipped', notApplicable: true, reason: 'the platform has no device flow' });
    expect(oauth?.cases.find((c) => c.id === 'device-code-expiry')?.notApplicable).toBe(false);
  });
});

describe('TAP, HTML and the console', () => {
  it('TAP: a SKIP directive saying not applicable, and the count in the summary comment', () => {
    const tap = renderTap(withNotApplicable());
    expect(tap).toMatch(/^ok \d+ - oauth\/device-flow-offered \[OAUTH-DEVICE-FLOW\] # SKIP not applicable: the platform has no device flow$/m);
    expect(tap).toMatch(/# requirements: 12 \(.*not-applicable 2, stale 1\)/);
  });

  it('HTML: a status of its own in the matrix, the filter and the chart', () => {
    const html = renderHtml(withNotApplicable(), { version: '9.9.9', node: 'v20.0.0' });
    expect(html).toContain('<tr class="req st-row-not-applicable" data-id="OAUTH-CLIENT-STATE">');
    expect(html).toContain('data-filter="req" value="not-applicable" data-count="2"');
    expect(html).toContain('not-applicable 2');
    expect(html).toContain('not applicable: the platform has no device flow');
  });

  it('console: an n/a column counted by level, the side judged next to the suite, and the case reason in verbose mode', async () => {
    const chunks: string[] = [];
    const stream = Object.assign(new Writable({ write: (c: Buffer | string, _e, cb) => void (chunks.push(c.toString()), cb()) }), { isTTY: false, columns: 80 });
    const r = createConsoleReporter({ stream, color: false, verbose: true });
    for (const e of eventsFor(withNotApplicable())) r.onEvent(e);
    await r.finish();
    const lines = chunks.join('').split('\n');
    const header = lines.find((l) => l.startsWith('Requirements'));
    expect(header?.split(/\s+/).filter(Boolean)).toEqual(['Requirements', 'passed', 'failed', 'untested', 'blocked', 'excluded', 'exp-fail', 'n/a']);
    const at = lines.indexOf('  oauth');
    expect(lines[at + 1]?.split(/\s+/).filter(Boolean)).toEqual(['MUST', '3', '2', '1', '0', '0', '0', '1']);
    expect(lines[at + 2]?.split(/\s+/).filter(Boolean)).toEqual(['SHOULD', '0', '0', '1', '0', '0', '1', '1']);
    expect(lines.find((l) => l.startsWith('  oauth (')) ?? '').toMatch(/^ {2}oauth \(8 cases, [\d.]+ s, server side only\)$/);
    expect(lines).toContain('  - oauth/device-flow-offered (not applicable: the platform has no device flow)');
    for (const line of lines.slice(lines.findIndex((l) => l.startsWith('Summary ('))).filter((l) => !l.startsWith('      replay: '))) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});
