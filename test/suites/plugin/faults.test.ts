import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { runCli } from '../../e2e/cli.js';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';

/**
 * Every planted fault (test/fixtures/plugin/faults) is caught by exactly the requirement it
 * breaks, through the real command line: `specgate run --suite plugin --plugin <fault>` (or
 * `--compiler <fault>`) and the JSON report's requirement verdicts. The reference passes.
 */

const suiteModule = fromRoot('dist', 'suites', 'plugin', 'index.js');
const faultDir = fromRoot('dist', 'test', 'fixtures', 'plugin', 'faults');
const built = builtSpecgate(suiteModule, join(faultDir, 'plugin-fault.js'));
declarePeer(built);
const work = mkdtempSync(join(tmpdir(), 'specgate-faults-'));
const profile = join(work, 'profile.yaml');
writeFileSync(profile, 'name: planted faults\nsuites:\n  plugin:\n    vars:\n      plugin_error_parameter: "fail=planted schema error"\n');
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Report {
  requirements: { id: string; status: string }[];
  summary: { exitCode: number };
}

/** Runs at most `cpus` CLI runs at once: each one runs many processes, and timeouts under load would hide verdicts. */
const slots = Math.max(1, Math.min(3, availableParallelism()));
let busy = 0;
const waiting: (() => void)[] = [];
async function withSlot<T>(f: () => Promise<T>): Promise<T> {
  if (busy >= slots) await new Promise<void>((r) => waiting.push(r));
  busy++;
  try {
    return await f();
  } finally {
    busy--;
    waiting.shift()?.();
  }
}

/** Verdicts only: shrinking (covered by the property-replay and fuzzer tests) would cost most of the time here. */
async function failedRequirements(flag: string[], label: string, target = true): Promise<{ failed: string[]; code: number | null; out: string }> {
  const report = join(work, `${label}.json`);
  const args = ['run', '--suite-module', suiteModule, '--suite', 'plugin', ...(target ? ['--target', profile] : []), ...flag, '--runs', '8', '--seed', '7', '--no-shrink', '--no-color', '--report', `json=${report}`];
  const r = await withSlot(() => runCli(args, { cwd: process.cwd() }));
  const out = `${r.stdout}${r.stderr}`;
  if (!existsSync(report)) throw new Error(`no report from ${label} (exit ${r.code}):\n${out}`);
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as Report;
  return { failed: parsed.requirements.filter((q) => q.status === 'failed').map((q) => q.id).sort(), code: r.code, out };
}

const catalogText = readFileSync(fromRoot('suites', 'plugin', 'requirements.yaml'), 'utf8');
const catalog = catalogText.split(/\n- id: /).slice(1).map((e) => ({
  id: e.split('\n')[0]?.trim() ?? '',
  must: /\n\s+level: MUST/.test(`\n${e}`),
  excluded: /\n\s+excluded:/.test(`\n${e}`),
}));
const mustLevel = new Set(catalog.filter((e) => e.must).map((e) => e.id));

const pluginFaults: [string, string][] = [
  ['plugin-text-output', 'PLUGIN-IO-ONE-RESPONSE'],
  ['plugin-absolute-name', 'PLUGIN-FILE-NAME-RELATIVE'],
  ['plugin-dot-dot-name', 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS'],
  ['plugin-backslash-name', 'PLUGIN-FILE-NAME-SLASH-SEPARATOR'],
  ['plugin-nameless-first', 'PLUGIN-FILE-APPEND-HAS-PREVIOUS'],
  ['plugin-duplicate-name', 'PLUGIN-FILE-NAME-ONCE'],
  ['plugin-insertion-without-name', 'PLUGIN-INSERTION-NAMES-FILE'],
  ['plugin-unknown-feature-bit', 'PLUGIN-FEATURES-KNOWN-BITS'],
  ['plugin-no-proto3-feature', 'PLUGIN-FEATURE-PROTO3-OPTIONAL'],
  ['plugin-error-exit-one', 'PLUGIN-ERROR-EXIT-ZERO'],
  ['plugin-garbage-exit-zero', 'PLUGIN-BAD-REQUEST-STDERR-NONZERO'],
  ['plugin-rejects-interleaved', 'PLUGIN-WIRE-FIELD-ORDER'],
  ['plugin-needs-compiler-version', 'PLUGIN-VERSION-OPTIONAL'],
  ['plugin-ignores-file-to-generate', 'PLUGIN-FILE-TO-GENERATE'],
  ['plugin-generates-well-known-imports', 'PLUGIN-FILE-TO-GENERATE'],
  ['plugin-nondeterministic', 'PLUGIN-DETERMINISTIC'],
  ['plugin-rejects-unknown-fields', 'PLUGIN-UNKNOWN-FIELDS-IGNORED'],
];

const driverFaults: [string, string][] = [
  ['driver-no-path-lookup', 'PLUGIN-COMPILER-INVOKES-BY-NAME'],
  ['driver-garbage-request', 'PLUGIN-COMPILER-ONE-REQUEST'],
  ['driver-sorted-files', 'PLUGIN-COMPILER-FILE-TO-GENERATE'],
  ['driver-drops-options', 'PLUGIN-COMPILER-PARAMETER'],
  ['driver-unsorted-proto-file', 'PLUGIN-COMPILER-PROTO-FILE-CLOSURE'],
  ['driver-unqualified-type-names', 'PLUGIN-COMPILER-TYPE-NAMES-QUALIFIED'],
  ['driver-proto-file-first', 'PLUGIN-COMPILER-PROTO-FILE-LAST'],
  ['driver-no-version', 'PLUGIN-COMPILER-VERSION'],
  ['driver-accepts-absolute', 'PLUGIN-COMPILER-NAME-RELATIVE'],
  ['driver-accepts-dot-components', 'PLUGIN-COMPILER-NAME-NO-DOT-COMPONENTS'],
  ['driver-accepts-backslash', 'PLUGIN-COMPILER-NAME-SLASH-SEPARATOR'],
  ['driver-append-overwrites', 'PLUGIN-COMPILER-APPEND'],
  ['driver-drops-nameless-first', 'PLUGIN-COMPILER-APPEND-FIRST-REJECTED'],
  ['driver-overwrites-duplicates', 'PLUGIN-COMPILER-NAME-ONCE'],
  ['driver-ignores-missing-insertion-file', 'PLUGIN-COMPILER-INSERTION-EXISTING-FILE'],
  ['driver-ignores-missing-marker', 'PLUGIN-COMPILER-INSERTION-MARKER-REQUIRED'],
  ['driver-inserts-below-marker', 'PLUGIN-COMPILER-INSERTION-PLACEMENT'],
  ['driver-no-indent', 'PLUGIN-COMPILER-INSERTION-INDENT'],
  ['driver-stacks-insertions', 'PLUGIN-COMPILER-INSERTION-ORDER'],
  ['driver-reversed-generators', 'PLUGIN-COMPILER-GENERATOR-ORDER'],
  ['driver-ignores-error', 'PLUGIN-COMPILER-ERROR-FAILS'],
  ['driver-ignores-plugin-exit', 'PLUGIN-COMPILER-PLUGIN-FAILURE'],
  ['driver-partial-write', 'PLUGIN-COMPILER-FAILED-WRITES-NOTHING'],
  ['driver-no-proto3-gate', 'PLUGIN-COMPILER-PROTO3-OPTIONAL-GATE'],
];

describe.skipIf(built.skip)('plugin suite: planted faults are caught by exactly their requirement', () => {
  it('the reference plugin and driver fail nothing', async () => {
    const r = await failedRequirements([], 'reference', false);
    expect(r.failed, r.out).toEqual([]);
    expect(r.code).toBe(0);
  }, 1_800_000);

  describe.concurrent('plugins', () => {
    it.each(pluginFaults)('%s fails %s only', async (fault, requirement) => {
      const r = await failedRequirements(['--plugin', join(faultDir, `${fault}.js`)], fault);
      expect(r.failed, r.out).toEqual([requirement]);
      // SHOULD-level failures do not fail the gate without --strict.
      expect(r.code).toBe(mustLevel.has(requirement) ? 1 : 0);
    }, 1_800_000);
  });

  describe.concurrent('compilers', () => {
    it.each(driverFaults)('%s fails %s only', async (fault, requirement) => {
      const r = await failedRequirements(['--compiler', join(faultDir, `${fault}.js`)], fault);
      expect(r.failed, r.out).toEqual([requirement]);
      expect(r.code).toBe(mustLevel.has(requirement) ? 1 : 0);
    }, 1_800_000);
  });
});

it('every MUST requirement of the catalog has a planted fault, unless excluded', () => {
  const entries = catalog;
  const covered = new Set([...pluginFaults, ...driverFaults].map(([, r]) => r));
  const missing = entries.filter((e) => e.must && !e.excluded && !covered.has(e.id)).map((e) => e.id);
  expect(missing).toEqual([]);
});
