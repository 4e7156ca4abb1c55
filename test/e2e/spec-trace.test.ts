/**
 * A suite's statement trace as a user meets it: `specgate list --trace` (text and JSON), and
 * the coverage by specification section in the JSON and HTML reports of a run of the notes
 * example against its planted-fault copy, where the statements the faults break show failed
 * and the others passed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startNotesServer } from '../../examples/notes/server.js';
import { NOTES_TOKEN } from '../../examples/notes/suite.js';
import { fromRoot } from '../../src/paths.js';
import type { TraceSummary } from '../../src/engine/model.js';
import { assertBuilt, runCli, tempDir } from './cli.js';

const MODULE = fromRoot('dist/examples/notes/suite.js');
const tmp = tempDir('specgate-trace-');
afterAll(() => tmp.remove());

describe('statement traces', () => {
  it('list --trace prints every statement by section with what judges it, and the counts', async () => {
    assertBuilt();
    const res = await runCli(['list', '--trace', '--suite-module', MODULE, '--suite', 'notes'], { cwd: tmp.dir });
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toBe('notes: notes-spec.txt');
    expect(lines[1]).toBe('  statements of no one interface: 13 statements: 12 judged (92 %), 0 excluded (0 %), 1 informative');
    expect(lines).toContain('  Pages');
    expect(lines).toContain('    judged      "Following "cursor=<next_cursor>" from the first page to the last" — NOTES-PAGE-WALK');
    expect(lines).toContain('    informative "Notes API 1.0 (a small made-up specification" — the document\'s title');
  });

  it('list --trace --json gives each built-in suite\'s counts per interface', async () => {
    const res = await runCli(['list', '--trace', '--json', '--suite', 'events,ctx-auth'], { cwd: tmp.dir });
    expect(res.code).toBe(0);
    const listed = JSON.parse(res.stdout) as { name: string; trace: TraceSummary }[];
    expect(listed.map((s) => s.name)).toEqual(['events', 'ctx-auth']);
    const events = listed[0]?.trace;
    expect(events?.document).toBe('002_6af093588121405e.txt');
    expect(events?.interfaces.map((c) => c.interface)).toEqual(['G', 'H', 'shared']);
    for (const c of events?.interfaces ?? []) expect(c.judged + c.excluded + c.informative).toBe(c.statements);
  });

  it('the reports of a run show each statement with the verdict of its requirements', async () => {
    const server = await startNotesServer({ token: NOTES_TOKEN, faults: { ignoreLimit: true, keepDeleted: true } });
    try {
      const html = join(tmp.dir, 'notes.html');
      const json = join(tmp.dir, 'notes.json');
      const res = await runCli(['run', '--suite-module', MODULE, '--suite', 'notes', '--notes', server.url, '--seed', '7', '--report', `html=${html}`, '--report', `json=${json}`], { cwd: tmp.dir });
      expect(res.code).toBe(1);
      const report = JSON.parse(readFileSync(json, 'utf8')) as { suites: { trace: TraceSummary }[] };
      const pages = report.suites[0]?.trace.sections.find((s) => s.section === 'Pages');
      expect(pages?.statements.map((s) => s.requirements)).toEqual([['NOTES-SHAPES'], ['NOTES-PAGE-DEFAULT', 'NOTES-PAGE-LIMIT'], ['NOTES-PAGE-WALK']]);
      const page = readFileSync(html, 'utf8');
      expect(page).toContain('<h2 id="spec-coverage">Coverage by specification section</h2>');
      // the page-size statement fails with NOTES-PAGE-LIMIT; the walk passes; the lifecycle fails
      expect(page).toMatch(/<span class="badge st-failed">failed<\/span> “Without &quot;limit&quot; a page holds 20 notes”/);
      expect(page).toMatch(/<span class="badge st-passed">passed<\/span> “Following &quot;cursor=&lt;next_cursor&gt;&quot; from the first page to the last”/);
      expect(page).toMatch(/<span class="badge st-failed">failed<\/span> “A created note MUST read back as written”/);
      expect(page).toMatch(/<span class="badge st-informative">informative<\/span> “Notes API 1.0/);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
