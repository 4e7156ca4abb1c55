/**
 * Selecting what a run judges by part and by requirement, through the command line: a run of the
 * events platform part against the served events reference, with a profile that gives nothing of
 * the monitoring API, judges the platform requirements and reports the monitoring ones not
 * selected (conformant, exit 0); `--requirement` with a glob; `--case`, which judges what its
 * cases cover and reports the rest not selected, refuses a suite named by `--suite` with none of
 * the named cases and leaves such a suite out of a run that names no suite; `list`, `validate` and `init` with the same
 * flags; a profile's `select:`, which a run without selection flags judges (flags win and say so),
 * `validate` checks and `init --part` writes; an unknown part or a glob that matches nothing is a
 * usage error (exit 2), or a profile problem in `select:`. Needs `npm run build`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { declarePeer } from '../helpers/peer.js';
import { validate, xmllint, xpath } from '../reporting/xmllint.js';
import { assertBuilt, readReport, runCli, statusMap, tempDir } from './cli.js';
import { serveReference, type ServedReference } from './served-reference.js';

const tmp = tempDir('specgate-selection-');
let served: ServedReference | undefined;
/** The profile of the served reference with every monitoring variable taken out. */
let platformOnly = '';
/** The same without a user agent: a vendor whose target cannot make a user act. */
let noAgent = '';
/** The platform-only profile recording a selection of the polling rules (`select:`). */
let selecting = '';
/** Its secrets, as `serve --profile` wrote them beside it. */
let env: Record<string, string> = {};

/** What a vendor of the platform alone cannot give: the monitoring API's URLs, keys and services. */
const MONITORING_VARS = ['mon_url', 'ip_ranges_url', 'mon_api_key', 'mon_app_key', 'mon_app_key_no_events_read', 'apm_env', 'apm_service'];

beforeAll(async () => {
  assertBuilt();
  const file = join(tmp.dir, 'served.yaml');
  served = await serveReference(['events', '--profile', file], tmp.dir);
  const profile = parse(readFileSync(file, 'utf8')) as { suites: { events: { vars: Record<string, unknown>; agent: { actions: Record<string, { request: { url: string } }[]> } } } };
  const events = profile.suites.events;
  const origin = String(events.vars['mon_url']);
  for (const name of MONITORING_VARS) delete events.vars[name];
  // the vendor's own user agent: it names no monitoring variable
  for (const step of events.agent.actions['new-event'] ?? []) step.request.url = step.request.url.replace('${mon_url}', origin);
  platformOnly = join(tmp.dir, 'platform.yaml');
  writeFileSync(platformOnly, stringify(profile));
  selecting = join(tmp.dir, 'selecting.yaml');
  writeFileSync(selecting, stringify({ ...profile, suites: { events: { select: { requirements: ['EVENTS-PLAT-POLL-*', 'EVENTS-PLAT-ETAG'] }, ...events } } }));
  const { agent: _agent, ...withoutAgent } = events;
  noAgent = join(tmp.dir, 'no-agent.yaml');
  writeFileSync(noAgent, stringify({ ...profile, suites: { events: withoutAgent } }));
  for (const m of readFileSync(join(tmp.dir, 'served.env'), 'utf8').matchAll(/^([A-Z_][A-Z0-9_]*)='([^']*)'$/gm)) if (m[1] && m[2] !== undefined) env[m[1]] = m[2];
}, 90_000);

afterAll(async () => {
  await served?.stop();
  tmp.remove();
});

describe('run --part', () => {
  it('the platform part against a profile without monitoring variables: platform judged, monitoring not selected, conformant (exit 0)', async () => {
    const json = join(tmp.dir, 'platform.json');
    const junit = join(tmp.dir, 'platform.xml');
    const run = await runCli(['run', '--suite', 'events', '--part', 'events=platform', '--target', platformOnly, '--seed', '5', '--report', `json=${json}`, '--report', `junit=${junit}`], { cwd: tmp.dir, env });
    expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(0);
    const report = readReport(json);
    const statuses = Object.entries(statusMap(report));
    const of = (prefix: string): string[] => [...new Set(statuses.filter(([id]) => id.startsWith(prefix)).map(([, s]) => s))].sort();
    expect(of('EVENTS-PLAT-')).toEqual(['excluded', 'passed']);
    expect(of('EVENTS-MON-')).toEqual(['excluded', 'not-selected']);
    expect(of('EVENTS-CLIENT-')).toEqual(['not-selected']);
    expect(report.requirements.find((r) => r.id === 'EVENTS-MON-ID-STR')?.reason).toBe("outside this run's selection (--part platform)");
    // not selected is never untested: not in the counts, not in the judged fraction
    expect(report.summary.verdict).toMatch(/^conformant at the gating level \(MUST\): judged (\d+) of \1 gating requirements \(100%\); \d+ not selected in all$/);
    expect((report.summary as unknown as { requirements: Record<string, number> }).requirements).toMatchObject({ untested: 0, failed: 0 });
    expect(run.stdout).toMatch(/^ {2}events: \d+ requirements not selected \(outside --part platform\)$/m);
    expect(readFileSync(junit, 'utf8')).toContain('<skipped message="not selected: outside this run&apos;s selection (--part platform)"/>');
  }, 120_000);

  it('without --part the same profile is refused before anything runs, naming what the monitoring cases need (exit 2)', async () => {
    const run = await runCli(['run', '--suite', 'events', '--target', platformOnly, '--seed', '5', '--report', `json=${join(tmp.dir, 'all.json')}`], { cwd: tmp.dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('mon_url');
  }, 60_000);

  it('validate checks the profile for the same selection', async () => {
    expect((await runCli(['validate', '--part', 'events=platform', platformOnly], { cwd: tmp.dir, env })).code).toBe(0);
    const all = await runCli(['validate', platformOnly], { cwd: tmp.dir, env });
    expect(all.code).toBe(2);
    expect(all.stderr).toContain('mon_url');
  }, 60_000);
});

describe('run --requirement', () => {
  it('a glob selects the cases that cover what it matches; list previews the same selection', async () => {
    const json = join(tmp.dir, 'poll.json');
    const run = await runCli(['run', '--suite', 'events', '--requirement', 'EVENTS-PLAT-POLL-*', '--seed', '5', '--report', `json=${json}`], { cwd: tmp.dir });
    expect(run.code, run.stdout.slice(-2000)).toBe(0);
    const report = readReport(json);
    const judged = report.requirements.filter((r) => r.status !== 'not-selected' && r.status !== 'excluded').map((r) => [r.id, r.status]);
    expect(judged).toEqual([['EVENTS-PLAT-POLL-INTERVAL', 'passed']]);
    const ran = report.suites.flatMap((s) => s.cases.map((c) => c.id)).sort();
    const list = await runCli(['list', '--suite', 'events', '--requirement', 'EVENTS-PLAT-POLL-*'], { cwd: tmp.dir });
    expect(list.code).toBe(0);
    const listed = [...list.stdout.matchAll(/^ {4}(\S+) \[/gm)].map((m) => m[1]).sort();
    expect(listed).toEqual(ran);
    expect(ran.length).toBeGreaterThan(0);
  }, 60_000);
});

/** The cases of the `--case` run, and the requirements they cover. */
const NAMED = ['payloads', 'plat-not-found'];
const COVERED = ['EVENTS-PLAT-PAYLOADS', 'EVENTS-PLAT-NOT-FOUND'];

describe('run --case', () => {
  const json = join(tmp.dir, 'named.json');
  const junit = join(tmp.dir, 'named.xml');
  let code: number | null = null;
  let output = '';
  beforeAll(async () => {
    const run = await runCli(['run', '--suite', 'events', '--case', NAMED.join(','), '--target', noAgent, '--seed', '5', '--report', `json=${json}`, '--report', `junit=${junit}`], { cwd: tmp.dir, env });
    code = run.code;
    output = run.stdout.slice(-2000) + run.stderr;
  }, 120_000);

  it('against a profile with neither monitoring variables nor a user agent: what the cases cover judged, the rest not selected naming --case (exit 0)', () => {
    expect(code, output).toBe(0);
    const report = readReport(json);
    const statuses = statusMap(report);
    expect(COVERED.map((id) => statuses[id])).toEqual(['passed', 'passed']);
    const others = Object.entries(statuses).filter(([id]) => !COVERED.includes(id));
    expect([...new Set(others.map(([, s]) => s))].sort()).toEqual(['excluded', 'not-selected']);
    // covered by cases left out (EVENTS-PLAT-ANONYMOUS, EVENTS-PLAT-MODIFIED: the user agent's) or by none
    for (const id of ['EVENTS-PLAT-ANONYMOUS', 'EVENTS-PLAT-MODIFIED', 'EVENTS-MON-ID-STR']) expect(report.requirements.find((r) => r.id === id)).toMatchObject({ status: 'not-selected', reason: `outside this run's selection (--case ${NAMED.join(',')})` });
    expect(report.summary.verdict).toMatch(/^conformant at the gating level \(MUST\): judged 2 of 2 gating requirements \(100%\); \d+ not selected in all$/);
    expect(report.suites.flatMap((s) => s.cases.map((c) => c.id)).sort()).toEqual([...NAMED].sort());
  });

  declarePeer(xmllint);
  it.skipIf(xmllint.skip)('JUnit: valid against junit-10.xsd, the other requirements skipped "not selected", the suite naming the selection', () => {
    expect(validate(junit)).toEqual({ ok: true, errors: [] });
    expect(xpath(junit, 'string(//testcase[@name="EVENTS-PLAT-ANONYMOUS (MUST)"]/skipped/@message)')).toBe(`not selected: outside this run's selection (--case ${NAMED.join(',')})`);
    expect(xpath(junit, 'count(//testcase[@name="EVENTS-PLAT-PAYLOADS (MUST)"]/skipped)')).toBe('0');
    expect(xpath(junit, 'count(//failure)')).toBe('0');
    expect(xpath(junit, 'string(//testsuite[@name="events.requirements"]/properties/property[@name="selection"]/@value)')).toBe(`--case ${NAMED.join(',')}`);
  });

  it('a suite named by --suite none of whose cases --case names is refused before anything runs, naming it (exit 2)', async () => {
    const run = await runCli(['run', '--suite', 'events,oauth', '--case', 'payloads', '--report', `json=${join(tmp.dir, 'named-none.json')}`], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('[SG_USAGE]: suite oauth is selected (--suite) but --case payloads names none of its cases');
    expect(run.stderr).toContain('drop it from --suite or name one of its cases');
    expect(run.stderr).not.toContain('suite events');
  }, 60_000);

  it('without --suite, the suites none of whose cases --case names are not run (exit 0)', async () => {
    const out = join(tmp.dir, 'default-suites.json');
    const run = await runCli(['run', '--case', 'payloads', '--report', `json=${out}`], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(0);
    const report = readReport(out);
    expect(report.suites.map((s) => s.name)).toEqual(['events']);
    expect(report.suites.flatMap((s) => s.cases.map((c) => c.id))).toEqual(['payloads']);
  }, 60_000);

  it('the user agent is still asked of a selection whose cases act as a user (exit 2, naming the action)', async () => {
    const run = await runCli(['run', '--suite', 'events', '--part', 'platform', '--target', noAgent, '--report', `json=${join(tmp.dir, 'no-agent.json')}`], { cwd: tmp.dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('new-event');
  }, 60_000);
});

describe("a profile's select:", () => {
  it('judges what it records when the command line selects nothing (conformant, exit 0)', async () => {
    const json = join(tmp.dir, 'selecting.json');
    const run = await runCli(['run', '--suite', 'events', '--target', selecting, '--seed', '5', '--report', `json=${json}`], { cwd: tmp.dir, env });
    expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(0);
    const report = readReport(json);
    const statuses = statusMap(report);
    expect([statuses['EVENTS-PLAT-POLL-INTERVAL'], statuses['EVENTS-PLAT-ETAG']]).toEqual(['passed', 'passed']);
    const label = "the profile's select: requirements EVENTS-PLAT-POLL-*, EVENTS-PLAT-ETAG";
    expect(report.requirements.find((r) => r.id === 'EVENTS-MON-ID-STR')).toMatchObject({ status: 'not-selected', reason: `outside this run's selection (${label})` });
    expect(Object.values(statuses)).not.toContain('untested');
    expect(run.stdout).not.toContain('warning:');
  }, 120_000);

  it('a selection flag wins, and the run says the recorded one is not used', async () => {
    const json = join(tmp.dir, 'selecting-flag.json');
    const run = await runCli(['run', '--suite', 'events', '--requirement', 'EVENTS-PLAT-ETAG', '--target', selecting, '--seed', '5', '--report', `json=${json}`], { cwd: tmp.dir, env });
    expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(0);
    expect(run.stdout).toContain("warning: suite events: --requirement on the command line chooses what this run judges; the profile's select: requirements EVENTS-PLAT-POLL-*, EVENTS-PLAT-ETAG is not used");
    const report = readReport(json);
    expect(statusMap(report)['EVENTS-PLAT-ETAG']).toBe('passed');
    expect(report.requirements.find((r) => r.id === 'EVENTS-PLAT-POLL-INTERVAL')).toMatchObject({ status: 'not-selected', reason: "outside this run's selection (--requirement EVENTS-PLAT-ETAG)" });
  }, 120_000);

  it('validate checks the profile for the selection it records, and reports an unknown part or a glob matching nothing with the other problems', async () => {
    expect((await runCli(['validate', selecting], { cwd: tmp.dir, env })).code).toBe(0);
    const profile = parse(readFileSync(selecting, 'utf8')) as { suites: { events: { vars: Record<string, unknown>; select: unknown } } };
    profile.suites.events.select = { parts: ['platfrom'], requirements: ['EVENTS-NOPE-*'] };
    profile.suites.events.vars['api_url'] = '<fill in>';
    const broken = join(tmp.dir, 'broken-select.yaml');
    writeFileSync(broken, stringify(profile));
    const run = await runCli(['validate', broken], { cwd: tmp.dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/broken-select\.yaml:\d+:\d+: suites\.events\.select\.parts names "platfrom": suite events has no part "platfrom" \(did you mean "platform"\?\); its parts: monitoring/);
    expect(run.stderr).toMatch(/broken-select\.yaml:\d+:\d+: suites\.events\.select\.requirements: EVENTS-NOPE-\* matches no requirement of suite events/);
    expect(run.stderr).toContain('api_url');
    // and a run stops on them before anything starts
    const refused = await runCli(['run', '--suite', 'events', '--target', broken, '--report', `json=${join(tmp.dir, 'broken.json')}`], { cwd: tmp.dir, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('select.parts names "platfrom"');
  }, 60_000);
});

describe('merge', () => {
  it('the shards of a selected run merge into the same verdicts: what lies outside stays not selected, never untested', async () => {
    const shards = await Promise.all([1, 2].map(async (k) => {
      const json = join(tmp.dir, `shard-${k}.json`);
      const run = await runCli(['run', '--suite', 'events', '--requirement', 'EVENTS-PLAT-POLL-*,EVENTS-PLAT-ETAG', '--shard', `${k}/2`, '--seed', '5', '--report', `json=${json}`], { cwd: tmp.dir });
      expect(run.code, run.stdout.slice(-1500)).not.toBe(2);
      return json;
    }));
    const merged = join(tmp.dir, 'merged.json');
    const merge = await runCli(['merge', '--allow-partial', '--report', `json=${merged}`, ...shards], { cwd: tmp.dir });
    expect(merge.code, merge.stdout.slice(-1500) + merge.stderr).toBe(0);
    const statuses = statusMap(readReport(merged));
    expect(statuses['EVENTS-PLAT-POLL-INTERVAL']).toBe('passed');
    expect(statuses['EVENTS-PLAT-ETAG']).toBe('passed');
    expect(statuses['EVENTS-MON-ID-STR']).toBe('not-selected');
    expect(Object.values(statuses)).not.toContain('untested');
  }, 90_000);
});

describe('init --part', () => {
  it('writes a profile for the selection: the platform variables REQUIRED, the monitoring ones optional', async () => {
    const out = await runCli(['init', 'events', '--part', 'platform'], { cwd: tmp.dir });
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^ {6}# mon_url: /m);
    expect(out.stdout).toMatch(/^ {6}api_url: "<fill in>"/m);
    // it records the selection, which a run with the profile judges without flags
    expect((parse(out.stdout) as { suites: { events: { select: unknown } } }).suites.events.select).toEqual({ parts: ['platform'] });
    expect(out.stdout.replace(/\n\s*# /g, ' ')).toContain('`specgate run --suite events --target <this file>` runs the selection (select: below records it)');
    const whole = await runCli(['init', 'events'], { cwd: tmp.dir });
    expect(whole.stdout).toMatch(/^ {6}mon_url: "<fill in>"/m);
    expect(whole.stdout).not.toContain('select:');
  }, 60_000);
});

describe('selection errors (exit 2)', () => {
  it('an unknown part names the parts the suite has', async () => {
    const run = await runCli(['run', '--suite', 'events', '--part', 'platfrom'], { cwd: tmp.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--part platfrom: suite events has no part "platfrom" \(did you mean "platform"\?\); its parts: monitoring \(.*\), platform \(.*\)/);
  }, 60_000);

  it('a requirement glob that matches nothing says so, with the parts to choose from', async () => {
    const run = await runCli(['run', '--suite', 'events', '--requirement', 'EVENTS-NOPE-*'], { cwd: tmp.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--requirement EVENTS-NOPE-* matches no requirement of suite events');
    expect(run.stderr).toContain('--part selects a whole part (events: monitoring, platform)');
  }, 60_000);
});
