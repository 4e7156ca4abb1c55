/**
 * cli/run-command.ts: a run of named cases (`--case`, what every replay command uses) loads its
 * suites once, both to check the names and to run them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../cli/run-command.js';
import { suite as demo } from '../fixtures/demo/suite.js';

// counts the loads of whole suites, wherever the command makes them
const loads = vi.hoisted(() => ({ names: [] as string[][] }));
vi.mock('../../src/engine/load-suites.js', async (original) => {
  const real = await original<typeof import('../../src/engine/load-suites.js')>();
  return {
    ...real,
    loadSuites: (...args: Parameters<typeof real.loadSuites>) => {
      loads.names.push([...args[1]]);
      return real.loadSuites(...args);
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'specgate-run-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  loads.names = [];
});

/** Runs `specgate run` in-process with its console output kept apart; the exit code and the JSON report. */
async function runQuietly(flags: Parameters<typeof runCommand>[1], argv: string[]): Promise<{ code: number; report: { suites: { cases: { id: string; outcome: string }[] }[] } }> {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const code = await runCommand([demo], flags, argv);
    return { code, report: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) };
  } finally {
    write.mockRestore();
  }
}

describe('specgate run --case', () => {
  it('loads the suite once, checks the names against it and runs the cases named', async () => {
    const { code, report } = await runQuietly(
      { suite: ['demo'], case: ['token-expiry'], report: [`json=${join(dir, 'results.json')}`], seed: { seed: 11, given: '11', folded: false }, targetFlags: {} },
      ['run', '--suite', 'demo', '--case', 'token-expiry', '--seed', '11'],
    );
    expect(code).toBe(0);
    expect(report.suites[0]?.cases.map((c) => [c.id, c.outcome])).toEqual([['token-expiry', 'passed']]);
    expect(loads.names).toEqual([['demo']]);
  });

  // the two below guard what the change must keep: the check of the names, and one load of a run without --case
  it('still stops on a name that selects nothing, before anything runs', async () => {
    await expect(runQuietly({ suite: ['demo'], case: ['token-expiri'], report: [`json=${join(dir, 'results.json')}`], targetFlags: {} }, ['run'])).rejects.toMatchObject({ code: 'SG_USAGE', message: expect.stringContaining('no case "token-expiri" in suite demo') });
    expect(loads.names).toEqual([['demo']]);
  });

  it('and a run without --case loads its suites once too', async () => {
    const { code } = await runQuietly({ suite: ['demo'], report: [`json=${join(dir, 'results.json')}`], seed: { seed: 11, given: '11', folded: false }, targetFlags: {} }, ['run']);
    expect(code).toBe(0);
    expect(loads.names).toEqual([['demo']]);
  });
});
