/**
 * Selecting what a run judges by part and by requirement, through the command line: a run of the
 * events platform part against the served events reference, with a profile that gives nothing of
 * the monitoring API, judges the platform requirements and reports the monitoring ones not
 * selected (conformant, exit 0); `--requirement` with a glob; `list`, `validate` and `init` with
 * the same flags; an unknown part or a glob that matches nothing is a usage error (exit 2).
 * Needs `npm run build`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { assertBuilt, readReport, runCli, statusMap, tempDir } from './cli.js';
import { serveReference, type ServedReference } from './served-reference.js';

const tmp = tempDir('specgate-selection-');
let served: ServedReference | undefined;
/** The profile of the served reference with every monitoring variable taken out. */
let platformOnly = '';
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
    expect(out.stdout).toContain('`specgate run --suite events --part platform');
    const whole = await runCli(['init', 'events'], { cwd: tmp.dir });
    expect(whole.stdout).toMatch(/^ {6}mon_url: "<fill in>"/m);
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
