import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../../src/paths.js';
import { EXTRA_CA_CERTS_VAR } from '../../../reference/plugin/launcher.js';
import { runCli } from '../../e2e/cli.js';
import { builtSpecgate, declarePeer } from '../../helpers/peer.js';

/**
 * Every planted fault (test/fixtures/plugin/faults) is caught by exactly the requirement it
 * breaks (plus the co-breaks it declares: requirements the same deviation breaks as well, by
 * the spec's own logic), through the real command line: `specgate run --suite plugin --plugin <plugin fault>
 * --compiler <compiler fault>` (one fault of each side per run, see FaultRun) and the JSON
 * report's requirement verdicts. A requirement a fault leaves nothing to judge is untested, not
 * passed (see notJudged). The reference passes.
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
  requirements: { id: string; status: string; side?: string; reason?: string; blockedBy?: string[] | null }[];
  suites: { cases: { id: string; outcome: string; reason?: string }[] }[];
  summary: { exitCode: number; gatingFailures: number };
}

/** Runs at most `cpus` CLI runs at once: each one runs many processes, and timeouts under load would hide verdicts. */
const slots = Math.max(1, Math.min(2, availableParallelism() - 1));
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

interface Verdicts {
  /** Failed requirement IDs with the side of the protocol each belongs to. */
  failed: { id: string; side: string }[];
  /** Blocked requirement IDs with their side and the requirements that blocked them. */
  blocked: { id: string; side: string; by: string[] }[];
  /** Every requirement's status, with the reason the report gives. */
  status: Map<string, { status: string; reason: string }>;
  /** Cases that errored (a harness or target fault, never a conformance verdict), with the reason. */
  errored: string[];
  gatingFailures: number;
  code: number | null;
  out: string;
}

/**
 * A run starts many Node processes (the planted faults are scripts run with node):
 * none of them makes a TLS connection, so none needs to parse the certificate file Node 20 reads
 * at every start when NODE_EXTRA_CA_CERTS names one (reference/plugin/launcher.ts).
 */
const LEAN_NODE_ENV: Record<string, string> = process.env[EXTRA_CA_CERTS_VAR] ? { [EXTRA_CA_CERTS_VAR]: '' } : {};

/** Verdicts only: shrinking (covered by the property-replay and fuzzer tests) would cost most of the time here. */
async function verdicts(flag: string[], label: string, runs: number, target = true): Promise<Verdicts> {
  const report = join(work, `${label}.json`);
  const args = ['run', '--suite-module', suiteModule, '--suite', 'plugin', ...(target ? ['--target', profile] : []), ...flag, '--runs', String(runs), '--seed', '7', '--no-shrink', '--no-color', '--report', `json=${report}`];
  const r = await withSlot(() => runCli(args, { cwd: process.cwd(), env: LEAN_NODE_ENV }));
  const out = `${r.stdout}${r.stderr}`;
  if (!existsSync(report)) throw new Error(`no report from ${label} (exit ${r.code}):\n${out}`);
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as Report;
  const failed = parsed.requirements.filter((q) => q.status === 'failed').map((q) => ({ id: q.id, side: q.side ?? '' }));
  const blocked = parsed.requirements.filter((q) => q.status === 'blocked').map((q) => ({ id: q.id, side: q.side ?? '', by: [...(q.blockedBy ?? [])].sort() }));
  const status = new Map(parsed.requirements.map((q) => [q.id, { status: q.status, reason: q.reason ?? '' }]));
  const errored = parsed.suites.flatMap((s) => s.cases.filter((c) => c.outcome === 'errored').map((c) => `${c.id}: ${c.reason ?? ''}`));
  return { failed: failed.sort((a, b) => a.id.localeCompare(b.id)), blocked: blocked.sort((a, b) => a.id.localeCompare(b.id)), status, errored, gatingFailures: parsed.summary.gatingFailures, code: r.code, out };
}

const catalogText = readFileSync(fromRoot('suites', 'plugin', 'requirements.yaml'), 'utf8');
const catalog = catalogText.split(/\n- id: /).slice(1).map((e) => ({
  id: e.split('\n')[0]?.trim() ?? '',
  must: /\n\s+level: MUST/.test(`\n${e}`),
  excluded: /\n\s+excluded:/.test(`\n${e}`),
}));
const mustLevel = new Set(catalog.filter((e) => e.must).map((e) => e.id));

/** A planted fault, the requirement it is made to break, and the requirements it breaks as well. */
type Fault = [fault: string, requirement: string, ...coBreaks: string[]];

const pluginFaults: Fault[] = [
  ['plugin-text-output', 'PLUGIN-IO-RESPONSE-DECODES'],
  ['plugin-logs-to-stdout', 'PLUGIN-IO-STDOUT-ONLY-RESPONSE'],
  ['plugin-misnamed', 'PLUGIN-EXECUTABLE-NAME'],
  ['plugin-crashes-on-proto3-optional', 'PLUGIN-ERROR-EXIT-ZERO'],
  ['plugin-absolute-name', 'PLUGIN-FILE-NAME-RELATIVE'],
  ['plugin-dot-dot-name', 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS'],
  ['plugin-backslash-name', 'PLUGIN-FILE-NAME-SLASH-SEPARATOR'],
  ['plugin-nameless-first', 'PLUGIN-FILE-APPEND-HAS-PREVIOUS'],
  ['plugin-duplicate-name', 'PLUGIN-FILE-NAME-ONCE'],
  ['plugin-insertion-without-name', 'PLUGIN-INSERTION-NAMES-FILE'],
  ['plugin-inserts-before-creating', 'PLUGIN-INSERTION-EXISTING-FILE'],
  ['plugin-malformed-marker', 'PLUGIN-INSERTION-POINT-MARKED'],
  ['plugin-content-under-unknown-tag', 'PLUGIN-RESPONSE-SCHEMA-TAGS'],
  ['plugin-warns-in-error-field', 'PLUGIN-ERROR-ONLY-ON-FAILURE'],
  ['plugin-hangs-on-legacy', 'PLUGIN-IO-ONE-RESPONSE'],
  ['plugin-unknown-feature-bit', 'PLUGIN-FEATURES-KNOWN-BITS'],
  ['plugin-no-proto3-feature', 'PLUGIN-FEATURE-PROTO3-OPTIONAL'],
  ['plugin-error-exit-one', 'PLUGIN-ERROR-EXIT-ZERO'],
  ['plugin-garbage-exit-zero', 'PLUGIN-BAD-REQUEST-STDERR-NONZERO'],
  ['plugin-rejects-interleaved', 'PLUGIN-WIRE-FIELD-ORDER'],
  ['plugin-needs-compiler-version', 'PLUGIN-VERSION-OPTIONAL'],
  ['plugin-ignores-file-to-generate', 'PLUGIN-FILE-TO-GENERATE'],
  ['plugin-generates-well-known-imports', 'PLUGIN-FILE-TO-GENERATE'],
  ['plugin-renames-import-output', 'PLUGIN-FILE-TO-GENERATE'],
  ['plugin-nondeterministic', 'PLUGIN-DETERMINISTIC'],
  ['plugin-rejects-unknown-fields', 'PLUGIN-UNKNOWN-FIELDS-IGNORED'],
  // shows only with a parameter: caught by the parameters a run generates when the profile names none
  ['plugin-suffix-dot-dir', 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS'],
  // what these disturb beyond their own rule is blocked by it (planted-faults.test.ts asserts the blocked set in-process)
  ['plugin-dot-dir-single-file', 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS'],
  ['plugin-indexes-before-creating', 'PLUGIN-INSERTION-EXISTING-FILE'],
  ['plugin-error-beside-every-answer', 'PLUGIN-ERROR-ONLY-ON-FAILURE'],
];

const driverFaults: Fault[] = [
  ['driver-no-path-lookup', 'PLUGIN-COMPILER-INVOKES-BY-NAME'],
  ['driver-garbage-request', 'PLUGIN-COMPILER-ONE-REQUEST'],
  ['driver-generates-imports', 'PLUGIN-COMPILER-FILE-TO-GENERATE'],
  ['driver-sorted-files', 'PLUGIN-COMPILER-FILE-TO-GENERATE-ORDER'],
  ['driver-drops-options', 'PLUGIN-COMPILER-PARAMETER'],
  ['driver-omits-imports', 'PLUGIN-COMPILER-PROTO-FILE-CLOSURE'],
  ['driver-unsorted-proto-file', 'PLUGIN-COMPILER-PROTO-FILE-TOPOLOGICAL'],
  ['driver-unqualified-type-names', 'PLUGIN-COMPILER-TYPE-NAMES-QUALIFIED'],
  ['driver-proto-file-first', 'PLUGIN-COMPILER-PROTO-FILE-LAST'],
  ['driver-no-version', 'PLUGIN-COMPILER-VERSION'],
  ['driver-wrong-version-suffix', 'PLUGIN-COMPILER-VERSION-VALUES'],
  ['driver-leaves-staging-copies', 'PLUGIN-COMPILER-OUTPUT-INSIDE'],
  // an absolute name is joined under the output folder, as protoc does: refused by no one, outside of nothing
  ['driver-accepts-absolute', 'PLUGIN-COMPILER-NAME-RELATIVE'],
  // following ".." out of the output folder is what the spec forbids, besides not refusing the name
  ['driver-accepts-dot-components', 'PLUGIN-COMPILER-NAME-NO-DOT-COMPONENTS', 'PLUGIN-COMPILER-OUTPUT-INSIDE'],
  ['driver-accepts-backslash', 'PLUGIN-COMPILER-NAME-SLASH-SEPARATOR'],
  ['driver-append-overwrites', 'PLUGIN-COMPILER-APPEND'],
  ['driver-drops-nameless-first', 'PLUGIN-COMPILER-APPEND-FIRST-REJECTED'],
  ['driver-overwrites-duplicates', 'PLUGIN-COMPILER-NAME-ONCE'],
  // skipping an insertion into a file that does not exist also skips one into a file an earlier
  // run left: neither file was generated in this invocation (rules 3 and 6)
  ['driver-ignores-missing-insertion-file', 'PLUGIN-COMPILER-INSERTION-EXISTING-FILE', 'PLUGIN-COMPILER-INSERTION-SAME-INVOCATION'],
  ['driver-inserts-into-leftovers', 'PLUGIN-COMPILER-INSERTION-SAME-INVOCATION'],
  ['driver-ignores-missing-marker', 'PLUGIN-COMPILER-INSERTION-MARKER-REQUIRED'],
  ['driver-inserts-below-marker', 'PLUGIN-COMPILER-INSERTION-PLACEMENT'],
  ['driver-no-indent', 'PLUGIN-COMPILER-INSERTION-INDENT'],
  ['driver-stacks-insertions', 'PLUGIN-COMPILER-INSERTION-ORDER'],
  ['driver-reversed-generators', 'PLUGIN-COMPILER-GENERATOR-ORDER'],
  ['driver-ignores-error', 'PLUGIN-COMPILER-ERROR-FAILS'],
  ['driver-ignores-plugin-exit', 'PLUGIN-COMPILER-PLUGIN-FAILURE'],
  ['driver-reads-garbage-as-empty', 'PLUGIN-COMPILER-BAD-RESPONSE-FAILS'],
  ['driver-partial-write', 'PLUGIN-COMPILER-FAILED-WRITES-NOTHING'],
  ['driver-no-proto3-gate', 'PLUGIN-COMPILER-PROTO3-OPTIONAL-GATE'],
  ['driver-drops-code-info', 'PLUGIN-COMPILER-GENERATED-CODE-INFO'],
];

/**
 * Requirements a fault leaves with nothing to judge: every input they apply to crashed the
 * plugin. They must not be reported passed; the report says why they are untested.
 */
const notJudged: Record<string, string[]> = {
  'plugin-crashes-on-proto3-optional': ['PLUGIN-FEATURE-PROTO3-OPTIONAL'],
};

/**
 * What a fault disturbs beyond the rule it breaks: requirements the run reports blocked by that
 * rule (untested because the case rests on it), never failed. A fault not listed blocks nothing.
 */
const blocks: Record<string, string[]> = {
  'plugin-dot-dir-single-file': ['PLUGIN-FILE-TO-GENERATE'],
  'plugin-indexes-before-creating': ['PLUGIN-FILE-TO-GENERATE'],
  'plugin-error-beside-every-answer': [
    'PLUGIN-FEATURE-PROTO3-OPTIONAL', 'PLUGIN-FILE-APPEND-HAS-PREVIOUS', 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS', 'PLUGIN-FILE-NAME-ONCE',
    'PLUGIN-FILE-NAME-RELATIVE', 'PLUGIN-FILE-NAME-SLASH-SEPARATOR', 'PLUGIN-FILE-TO-GENERATE', 'PLUGIN-INSERTION-EXISTING-FILE',
    'PLUGIN-INSERTION-NAMES-FILE', 'PLUGIN-INSERTION-POINT-MARKED', 'PLUGIN-UNKNOWN-FIELDS-IGNORED', 'PLUGIN-VERSION-OPTIONAL', 'PLUGIN-WIRE-FIELD-ORDER',
  ],
  // the compiler side: a merge or a placement judged on a file the faulty insertion produced
  'driver-inserts-below-marker': ['PLUGIN-COMPILER-GENERATED-CODE-INFO', 'PLUGIN-COMPILER-INSERTION-SAME-INVOCATION'],
  'driver-no-indent': ['PLUGIN-COMPILER-GENERATED-CODE-INFO'],
  'driver-reversed-generators': ['PLUGIN-COMPILER-GENERATED-CODE-INFO'],
  'plugin-text-output': ['PLUGIN-DETERMINISTIC', 'PLUGIN-FILE-TO-GENERATE', 'PLUGIN-UNKNOWN-FIELDS-IGNORED', 'PLUGIN-VERSION-OPTIONAL', 'PLUGIN-WIRE-FIELD-ORDER'],
};

/**
 * Faults that are not a behaviour but a name: run through a wrapper of that name (a plugin
 * installed as `specgate-misnamed-plugin`, which no compiler finds for `--<NAME>_out`).
 */
const installedAs: Record<string, string> = { 'plugin-misnamed': 'specgate-misnamed-plugin' };

/** The executable that runs a plugin fault: its compiled script, or a wrapper under the name it is installed as. */
function pluginExecutable(fault: string): string {
  const script = join(faultDir, `${fault}.js`);
  const name = installedAs[fault];
  if (name === undefined) return script;
  const wrapper = join(work, name);
  writeFileSync(wrapper, `#!/bin/sh\nexec '${process.execPath}' '${script}' "$@"\n`, { mode: 0o755 });
  return wrapper;
}

/**
 * Runs per property in a fault's run: the fewest with which every fault below is still caught by
 * exactly its requirement (the fixed cases catch most; each property still runs and is judged).
 * The reference run, the control, keeps a few more; the seed sweep (test/e2e/seed-sweep.test.ts)
 * is where the properties meet a conformant target on many generated inputs.
 */
const FAULT_RUNS = 1;
const REFERENCE_RUNS = 3;

/**
 * A plugin fault and a compiler fault share one run. The plugin-side cases run only the plugin
 * (`--plugin`) and judge only plugin-side requirements; the compiler-side cases run only the
 * compiler (`--compiler`), with plugins specgate scripts itself, and judge only compiler-side
 * ones. So neither fault can change a verdict on the other's side, and each side of the report
 * reads as a run of that fault alone. The count of gating failures expected is the sum of both
 * faults' MUST requirements, so a pair of any levels still shows, per fault, whether its failure
 * gates (MUST) or not (STRICTER). A fault left without a partner runs its own side only
 * (`--side`): the reference on the other side would only repeat the reference run.
 */
interface FaultRun {
  plugin?: Fault;
  driver?: Fault;
}

function pair(plugins: Fault[], drivers: Fault[]): FaultRun[] {
  const runs: FaultRun[] = [];
  for (let i = 0; i < Math.max(plugins.length, drivers.length); i++) {
    const plugin = plugins[i];
    const driver = drivers[i];
    runs.push({ ...(plugin ? { plugin } : {}), ...(driver ? { driver } : {}) });
  }
  return runs;
}

const faultRuns = pair(pluginFaults, driverFaults);
const started = new Map<FaultRun, Promise<Verdicts>>();

/** The run that holds `fault`, started by whichever of its tests asks first. */
function runOf(fault: string): { run: FaultRun; verdicts: Promise<Verdicts> } {
  const run = faultRuns.find((r) => r.plugin?.[0] === fault || r.driver?.[0] === fault);
  if (!run) throw new Error(`${fault} is in no run`);
  let v = started.get(run);
  if (!v) {
    const flags = [
      ...(run.plugin ? ['--plugin', pluginExecutable(run.plugin[0])] : ['--side', 'compiler']),
      ...(run.driver ? ['--compiler', join(faultDir, `${run.driver[0]}.js`)] : ['--side', 'plugin']),
    ];
    v = verdicts(flags, [run.plugin?.[0], run.driver?.[0]].filter(Boolean).join('+'), FAULT_RUNS);
    started.set(run, v);
  }
  return { run, verdicts: v };
}

/** Checks one fault's side of its run: exactly its requirement and co-breaks failed there, and the gate counted them by level. */
async function expectCaughtExactly(fault: string, requirement: string, coBreaks: string[], side: 'plugin' | 'compiler'): Promise<void> {
  const { run, verdicts: pending } = runOf(fault);
  const r = await pending;
  const other = side === 'plugin' ? 'compiler' : 'plugin';
  const shared = run.plugin !== undefined && run.driver !== undefined;
  // Alone, every failure is this fault's; sharing a run, every failure not on the partner's side is.
  const mine = r.failed.filter((q) => !shared || q.side !== other).map((q) => q.id);
  expect(mine, r.out).toEqual([requirement, ...coBreaks].sort((a, b) => a.localeCompare(b)));
  // a planted fault is judged, never an error of the harness or a case
  expect(r.errored, r.out).toEqual([]);
  // what it disturbs beyond that is blocked by what it broke, on its own side
  const blockedHere = r.blocked.filter((q) => !shared || q.side !== other);
  expect(blockedHere.map((q) => q.id), `${fault} blocks: ${JSON.stringify(blockedHere)}`).toEqual([...(blocks[fault] ?? [])].sort((a, b) => a.localeCompare(b)));
  for (const q of blockedHere) expect([requirement, ...coBreaks], `${q.id} blocked by ${q.by.join(', ')}`).toEqual(expect.arrayContaining(q.by));
  for (const id of notJudged[fault] ?? []) {
    const v = r.status.get(id);
    expect(v?.status, `${id}: ${v?.reason ?? ''}`).toBe('untested');
    expect(v?.reason, id).toContain(`not judged: ${id}`);
  }
  // SHOULD-level failures do not fail the gate without --strict.
  const gating = [run.plugin, run.driver].flatMap((f) => (f === undefined ? [] : f.slice(1))).filter((id) => mustLevel.has(id)).length;
  expect(r.gatingFailures, r.out).toBe(gating);
  expect(r.code).toBe(gating > 0 ? 1 : 0);
}

// Every run goes through the slots above, so all of them may be asked for at once.
describe.skipIf(built.skip)('plugin suite: planted faults are caught by exactly their requirement', { concurrent: true }, () => {
  it('the reference plugin and driver fail nothing', async () => {
    const r = await verdicts([], 'reference', REFERENCE_RUNS, false);
    expect(r.failed, r.out).toEqual([]);
    expect(r.errored, r.out).toEqual([]);
    expect(r.code).toBe(0);
  }, 1_800_000);

  describe.concurrent('plugins', () => {
    it.each(pluginFaults)('%s fails %s only, with its declared co-breaks', (fault, requirement, ...coBreaks) => expectCaughtExactly(fault, requirement, coBreaks, 'plugin'), 1_800_000);
  });

  describe.concurrent('compilers', () => {
    it.each(driverFaults)('%s fails %s only, with its declared co-breaks', (fault, requirement, ...coBreaks) => expectCaughtExactly(fault, requirement, coBreaks, 'compiler'), 1_800_000);
  });
});

it('every MUST requirement of the catalog has a planted fault, unless excluded', () => {
  const entries = catalog;
  // a co-break does not count: every requirement needs a fault made to break it
  const covered = new Set([...pluginFaults, ...driverFaults].map(([, r]) => r));
  const missing = entries.filter((e) => e.must && !e.excluded && !covered.has(e.id)).map((e) => e.id);
  expect(missing).toEqual([]);
});
