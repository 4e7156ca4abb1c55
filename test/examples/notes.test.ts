/**
 * The worked example of API tables, run the way the README shows: the CLI against the correct
 * notes service and against its planted-fault copy (pages ignore limit, delete keeps the note).
 * Exactly the requirements those faults break fail, and the lifecycle failure carries a shrunk
 * command sequence with its replay command.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { startNotesServer } from '../../examples/notes/server.js';
import { NOTES_TOKEN, suite } from '../../examples/notes/suite.js';
import { caseOf, readReport, runCli, statusMap, tempDir } from '../e2e/cli.js';
import { loadedSuite } from '../helpers/suite-facts.js';

const MODULE = fromRoot('dist/examples/notes/suite.js');

/** The example's catalog as the engine loads it: a correct service passes every requirement. */
const notes = loadedSuite(suite);
const ALL_PASS: Record<string, string> = Object.fromEntries(notes.requirements.map((r) => [r.id, 'passed']));

async function runNotes(dir: string, name: string, extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string; report: ReturnType<typeof readReport> }> {
  const json = join(dir, `${name}.json`);
  const res = await runCli(['run', '--suite-module', MODULE, '--suite', 'notes', '--seed', '7', '--report', `json=${json}`, ...extra], { cwd: dir });
  if (!existsSync(json)) throw new Error(`the run wrote no report: ${res.stderr}`);
  return { ...res, report: readReport(json) };
}

describe('examples/notes: an HTTP API described as data', () => {
  const tmp = tempDir('specgate-notes-');
  beforeAll(() => {
    if (!existsSync(MODULE)) throw new Error('dist/examples/notes/suite.js is missing: run `npm run build` first (`npm test` does it)');
  });
  afterAll(() => tmp.remove());

  it('the embedded correct service passes every requirement, with one case per operation row', async () => {
    const run = await runNotes(tmp.dir, 'reference', []);
    expect(run.stderr).toBe('');
    expect(statusMap(run.report)).toEqual(ALL_PASS);
    expect(run.code).toBe(0);
    const ids = run.report.suites[0]?.cases.map((c) => c.id) ?? [];
    // each: rows expand into one route case per operation of the table
    expect(ids.filter((id) => id.startsWith('served-'))).toHaveLength(notes.api?.operations.length ?? 0);
    expect(ids).toContain('auth-required-delete-tag');
  }, 120_000);

  it('an external correct service passes too (--notes <url>)', async () => {
    const server = await startNotesServer({ token: NOTES_TOKEN });
    try {
      const run = await runNotes(tmp.dir, 'external', ['--notes', server.url]);
      expect(statusMap(run.report)).toEqual(ALL_PASS);
      expect(run.code).toBe(0);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('the planted-fault copy fails exactly the paging limit and the lifecycle, with a shrunk sequence', async () => {
    const server = await startNotesServer({ token: NOTES_TOKEN, faults: { ignoreLimit: true, keepDeleted: true } });
    try {
      const run = await runNotes(tmp.dir, 'faulty', ['--notes', server.url]);
      expect(statusMap(run.report)).toEqual({ ...ALL_PASS, 'NOTES-PAGE-LIMIT': 'failed', 'NOTES-LIFECYCLE': 'failed' });
      expect(run.code).toBe(1);
      const limit = caseOf(run.report, 'page-limit');
      expect(limit.failures[0]?.message).toContain('listNotes with limit=2 answered 20 items; expected 2');
      expect(caseOf(run.report, 'note-read-back').failures[0]?.message).toContain('404');
      const seq = caseOf(run.report, 'note-sequences');
      expect(seq.outcome).toBe('failed');
      const counterexample = seq.property?.counterexample as { do: string }[];
      // the shortest sequence that shows it: make a note, delete it, then touch it again
      expect(counterexample).toHaveLength(3);
      expect(counterexample[1]?.do).toBe('delete');
      expect(['create', 'batchCreate']).toContain(counterexample[0]?.do);
      expect(seq.property?.replay).toMatch(/--case note-sequences --seed 7 --path \S+/);
      expect(seq.failures[0]?.message).toMatch(/^step 3 of 3 /);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('a created note answered 202 fails the route rule (and the listed-status rule, by its own words); the lifecycle that rests on creating notes is blocked, not failed', async () => {
    const server = await startNotesServer({ token: NOTES_TOKEN, faults: { createAccepted: true } });
    try {
      const run = await runNotes(tmp.dir, 'create-202', ['--notes', server.url]);
      expect(statusMap(run.report)).toEqual({ ...ALL_PASS, 'NOTES-ROUTES': 'failed', 'NOTES-SHAPES': 'failed', 'NOTES-LIFECYCLE': 'blocked' });
      expect(run.code).toBe(1);
      const lifecycle = run.report.requirements.find((r) => r.id === 'NOTES-LIFECYCLE') as unknown as { blockedBy: string[]; reason: string };
      expect(lifecycle.blockedBy).toEqual(['NOTES-ROUTES']);
      // the read-back case stopped at its precondition; the sequences' failure is kept as what showed it
      expect(caseOf(run.report, 'note-read-back')).toMatchObject({ outcome: 'skipped', failures: [] });
      const seq = caseOf(run.report, 'note-sequences') as unknown as { outcome: string; blockedBy: { requirement: string }; blockedFailures: unknown[] };
      expect(seq.outcome).toBe('skipped');
      expect(seq.blockedBy.requirement).toBe('NOTES-ROUTES');
      expect(seq.blockedFailures.length).toBeGreaterThan(0);
      // the console leads its summary with the root and what it blocks, the replay command first
      const summary = run.stdout.slice(run.stdout.indexOf('Summary ('));
      expect(summary).toMatch(/Root failures \(2\)[\s\S]*× notes NOTES-ROUTES \(MUST\)[\s\S]*replay: specgate run [^\n]*--case served-create-note[\s\S]*1 requirement blocked by it:\s+NOTES-LIFECYCLE/);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('replaying the printed path reproduces the same shrunk sequence', async () => {
    const server = await startNotesServer({ token: NOTES_TOKEN, faults: { keepDeleted: true } });
    try {
      const first = await runNotes(tmp.dir, 'replay-1', ['--notes', server.url, '--case', 'note-sequences']);
      const property = caseOf(first.report, 'note-sequences').property;
      expect(property?.path).toBeTruthy();
      const again = await runNotes(tmp.dir, 'replay-2', ['--notes', server.url, '--case', 'note-sequences', '--path', String(property?.path)]);
      expect(caseOf(again.report, 'note-sequences').property?.counterexample).toEqual(property?.counterexample);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
