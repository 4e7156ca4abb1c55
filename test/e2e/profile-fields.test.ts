/**
 * A profile's `fields:` map, through the command line: a vendor's events service (the reference
 * wrapped here, calling the spec's `avatar_service_id` "avatar_id" and an event's `title`
 * "headline", in what it reads and in what it answers) fails the cases that read and send those
 * fields without the map, and passes them with it; a map naming a field the suite's schemas do
 * not have is a profile problem with the nearest names. Needs `npm run build`.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../reference/events/server/answers.js';
import { eventsVars } from '../../reference/events/server/reference-target.js';
import { startEventsServer, type RunningEventsServer } from '../../reference/events/server/server.js';
import { assertBuilt, caseOf, readReport, runCli, tempDir, writeProfile } from './cli.js';

/** The spec's field name -> the vendor's. */
const VENDOR_NAMES: Record<string, string> = { avatar_service_id: 'avatar_id', title: 'headline' };
const SPEC_NAMES = Object.fromEntries(Object.entries(VENDOR_NAMES).map(([spec, vendor]) => [vendor, spec]));

/**
 * `value` with its object keys renamed at any depth (the vendor's own translation layer); keys
 * named in `unknown` are left out, as the vendor knows no field by the spec's name.
 */
function renamed(value: unknown, names: Record<string, string>, unknown: Record<string, string> = {}): unknown {
  if (Array.isArray(value)) return value.map((v) => renamed(v, names, unknown));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !(k in unknown)).map(([k, v]) => [names[k] ?? k, renamed(v, names, unknown)]));
}

/** Every operation of the reference, spoken in the vendor's field names both ways. */
const vendor = (_id: string, reference: Handler): Handler => (call, ctx) => {
  const answer = reference({ ...call, body: renamed(call.body, SPEC_NAMES, VENDOR_NAMES) }, ctx);
  return answer.body === undefined ? answer : { ...answer, body: renamed(answer.body, VENDOR_NAMES) };
};

const CASES = ['event-shape', 'post-text-limit'];

const tmp = tempDir('specgate-profile-fields-');
let server: RunningEventsServer;
beforeAll(async () => {
  assertBuilt();
  server = await startEventsServer({ override: vendor });
});
afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

async function runWith(name: string, fields?: Record<string, string>): Promise<{ code: number | null; statuses: Record<string, string>; stderr: string; stdout: string; report: string }> {
  const profile = writeProfile(tmp.dir, name, { name, suites: { events: { vars: eventsVars(server), ...(fields ? { fields } : {}) } } });
  const report = join(tmp.dir, `${name}.json`);
  const res = await runCli(['run', '--target', profile, '--suite', 'events', '--case', CASES.join(','), '--report', `json=${report}`], { cwd: tmp.dir });
  const statuses = res.code === 2 ? {} : Object.fromEntries(CASES.map((id) => [id, caseOf(readReport(report), id).outcome]));
  return { code: res.code, statuses, stderr: res.stderr, stdout: res.stdout, report };
}

describe('a vendor whose events name two fields its own way', () => {
  it('fails the cases that read and send them without a fields: map', async () => {
    const run = await runWith('no-map');
    expect(run.code).toBe(1);
    expect(run.statuses).toEqual({ 'event-shape': 'failed', 'post-text-limit': 'failed' });
    // the shape failure says which field the vendor's actor lacks, in the spec's words
    const shape = caseOf(readReport(run.report), 'event-shape');
    expect(JSON.stringify(shape.failures)).toMatch(/actor lacks avatar_service_id/);
  });

  it('passes them with fields: mapping the spec names to the vendor names', async () => {
    const run = await runWith('mapped', VENDOR_NAMES);
    expect(run.statuses).toEqual({ 'event-shape': 'passed', 'post-text-limit': 'passed' });
    expect(run.code).toBe(0);
    // the exchanges the report keeps are as sent and received: the vendor's names
    const shape = readReport(run.report).suites[0]?.cases.find((c) => c.id === 'event-shape');
    expect(JSON.stringify(shape)).not.toMatch(/avatar_service_id/);
  });

  it('refuses a map naming a field no schema of the suite has, with the nearest names', async () => {
    const run = await runWith('typo', { avatar_servce_id: 'avatar_id' });
    expect(run.code).toBe(2);
    expect(run.stderr + run.stdout).toMatch(/typo\.yaml:\d+:\d+: fields\.avatar_servce_id names a field no schema of suite events has, nor a form or query its cases send; did you mean "avatar_service_id"\?/);
  });
});
