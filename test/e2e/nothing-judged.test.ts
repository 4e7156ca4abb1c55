/**
 * A run that judged nothing at the gating level is never "conformant": a recording that lets no
 * requirement be judged exits 4 with a verdict that says so, and `--require-judged` holds a run
 * that judged some, but too little, to the share it names. Needs `npm run build`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harEntry, harFile } from '../targets/har/har-builder.js';
import { assertBuilt, readReport, runCli, tempDir } from './cli.js';

describe('the judged fraction is part of the verdict', () => {
  const tmp = tempDir('specgate-judged-');
  beforeAll(() => assertBuilt());
  afterAll(() => tmp.remove());

  it('a recording of one IP-ranges call judges nothing: exit 4, not conformant, nothing passed', async () => {
    const har = join(tmp.dir, 'one-call.har');
    const body = JSON.stringify({ version: 1, modified: '2025-01-01-00-00-00' });
    writeFileSync(har, JSON.stringify(harFile([harEntry({ url: 'http://127.0.0.1:9/', responseHeaders: { 'content-type': 'application/json' }, body })])));
    const json = join(tmp.dir, 'one-call.json');
    const run = await runCli(['run', '--suite', 'events', '--target', `har:${har}`, '--report', `json=${json}`, '--no-color'], { cwd: tmp.dir });
    expect(run.code, run.stdout + run.stderr).toBe(4);
    expect(run.stdout).toMatch(/not conformant: no requirement at the gating level \(MUST\) was judged \(0 of \d+\)/);
    expect(run.stdout).toContain('exit code 4: too little judged');
    const report = readReport(json) as unknown as { summary: { exitCode: number; judged: { gating: number; judged: number }; requirements: { passed: number } } };
    expect(report.summary.exitCode).toBe(4);
    expect(report.summary.judged.judged).toBe(0);
    expect(report.summary.judged.gating).toBeGreaterThan(50);
    expect(report.summary.requirements.passed).toBe(0);
  });

  it('--require-judged: a run that judged everything it set out to passes at 100%; 0 is a usage error', async () => {
    const json = join(tmp.dir, 'few.json');
    const few = ['run', '--suite', 'collation', '--case', 'locale-simple-binary', '--report', `json=${json}`, '--no-color'];
    const held = await runCli([...few, '--require-judged', '100'], { cwd: tmp.dir });
    expect(held.code, held.stdout + held.stderr).toBe(0);
    expect(held.stdout).toMatch(/conformant at the gating level \(MUST\): judged (\d+) of \1 gating requirements \(100%\)/);
    const { judged } = (readReport(json) as unknown as { summary: { judged: { gating: number; judged: number } } }).summary;
    expect(judged.judged).toBeGreaterThan(0);
    const usage = await runCli([...few, '--require-judged', '0'], { cwd: tmp.dir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--require-judged takes a whole number from 1 to 100/);
  });
});
