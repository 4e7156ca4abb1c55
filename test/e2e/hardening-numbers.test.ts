/**
 * Numbers a target sends that a double cannot hold reach the machine-readable reports as every
 * JSON reader takes them: a 10,000-digit id (Python's json refuses integers past 4,300 digits)
 * and a 17-digit one (JavaScript and jq round it) are written as strings of their exact digits,
 * every number left in results.json comes back the same through a double, and `merge` reads
 * such a report back and writes it the same way.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_17_DIGITS, LONG_ID } from '../fixtures/demo/faults.js';
import { inexactNumbers, numberLiterals } from '../helpers/json-numbers.js';
import { DEMO_MODULE, assertBuilt, demoSection, runCli, runDemo, tempDir, writeProfile } from './cli.js';
import { faultServers } from './fault-server.js';

const tmp = tempDir();
const faultServer = faultServers();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

/** Python's own json module, refusing NaN and Infinity too; undefined when there is no python3. */
const PYTHON = spawnSync('python3', ['--version']).status === 0 ? 'python3' : undefined;
const STRICT_LOAD = "import json,sys\ndef refuse(c): raise ValueError('not JSON: ' + c)\njson.load(open(sys.argv[1], encoding='utf-8'), parse_constant=refuse)";

/** The file parses as JSON in Python (when python3 exists) and holds no number a double would change. */
function expectReadableEverywhere(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (PYTHON) {
    const loaded = spawnSync(PYTHON, ['-c', STRICT_LOAD, file], { encoding: 'utf8' });
    expect(loaded.stderr).toBe('');
    expect(loaded.status).toBe(0);
  }
  expect(numberLiterals(text).length).toBeGreaterThan(0);
  expect(inexactNumbers(text)).toEqual([]);
  return text;
}

describe.each([
  ['long-id', LONG_ID],
  ['id-17-digits', ID_17_DIGITS],
])('a target answering the id of fault %s', (fault, digits) => {
  let dir: string;
  let run: Awaited<ReturnType<typeof runDemo>>;
  beforeAll(async () => {
    const service = await faultServer(fault);
    dir = join(tmp.dir, fault);
    mkdirSync(dir);
    run = await runDemo(dir, ['--target', writeProfile(dir, 'profile', { suites: { demo: demoSection(service.url) } }), '--case', 'big-id']);
  }, 60_000);

  it('fails DEMO-BIG-ID, and results.json holds the exact digits as a string any JSON reader takes', () => {
    expect(run.code, run.stderr).toBe(1);
    const text = expectReadableEverywhere(run.json);
    expect(text).toContain(`"${digits}"`);
  });

  it('the TAP report writes it as a quoted YAML string, which no YAML reader rounds', () => {
    const tap = readFileSync(run.tap, 'utf8');
    expect(tap).toContain(`actual: "${digits}"`);
    expect(tap).not.toContain(`actual: ${digits}`);
  });

  it('merge reads the report back and writes the same digits the same way', async () => {
    const merged = join(dir, 'merged.json');
    const res = await runCli(['merge', '--suite-module', DEMO_MODULE, '--allow-partial', run.json, '--report', `json=${merged}`], { cwd: dir });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(1);
    expect(expectReadableEverywhere(merged)).toContain(`"${digits}"`);
  });
});
