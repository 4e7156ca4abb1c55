import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../../src/engine/model.js';
import { run } from '../../../../src/engine/run.js';
import { fromRoot } from '../../../../src/paths.js';
import { encodeResponse } from '../../../../reference/plugin/codec.js';
import { writeScriptedPlugin } from '../../../../reference/plugin/launcher.js';
import { FIXTURES } from '../../../../suites/plugin/checks/fixtures.js';
import { SHARED_ANSWER_BYTES } from '../../../../suites/plugin/checks/support.js';
import { suite } from '../../../../suites/plugin/index.js';
import { builtSpecgate, declarePeer } from '../../../helpers/peer.js';

/**
 * The `plugin-<rule>` cases (suites/plugin/cases/plugin-responses.yaml) share the plugin's
 * answer to each fixture: one plugin run per fixture for all of them, while each case still
 * judges only its own rule. Cases that send the same request bytes share the run too
 * (support.ts sharedPluginRun), each comparison of runs still getting runs of its own. The
 * plugin is wrapped in a script that counts its runs.
 */

const referencePlugin = fromRoot('dist', 'reference', 'plugin', 'plugin-main.js');
const absoluteNameFault = fromRoot('dist', 'test', 'fixtures', 'plugin', 'faults', 'plugin-absolute-name.js');
const crashFault = fromRoot('dist', 'test', 'fixtures', 'plugin', 'faults', 'plugin-crashes-on-proto3-optional.js');
const nondeterministicFault = fromRoot('dist', 'test', 'fixtures', 'plugin', 'faults', 'plugin-nondeterministic.js');
const built = builtSpecgate(referencePlugin, absoluteNameFault, crashFault, nondeterministicFault);
declarePeer(built);

const RULE_CASES: Record<string, string> = {
  'plugin-file-names-are-relative': 'PLUGIN-FILE-NAME-RELATIVE',
  'plugin-file-names-have-no-dot-components': 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS',
  'plugin-file-names-use-slash': 'PLUGIN-FILE-NAME-SLASH-SEPARATOR',
  'plugin-never-starts-with-a-nameless-chunk': 'PLUGIN-FILE-APPEND-HAS-PREVIOUS',
  'plugin-names-each-file-once': 'PLUGIN-FILE-NAME-ONCE',
  'plugin-insertions-name-their-file': 'PLUGIN-INSERTION-NAMES-FILE',
  'plugin-inserts-only-into-existing-files': 'PLUGIN-INSERTION-EXISTING-FILE',
  'plugin-inserts-only-at-marked-points': 'PLUGIN-INSERTION-POINT-MARKED',
  'plugin-writes-fields-under-schema-tags': 'PLUGIN-RESPONSE-SCHEMA-TAGS',
  'plugin-sets-error-only-when-failing': 'PLUGIN-ERROR-ONLY-ON-FAILURE',
  'plugin-answers-every-fixture': 'PLUGIN-IO-ONE-RESPONSE',
  'plugin-writes-decodable-responses': 'PLUGIN-IO-RESPONSE-DECODES',
  'plugin-writes-only-the-response-to-stdout': 'PLUGIN-IO-STDOUT-ONLY-RESPONSE',
  'plugin-sets-only-known-feature-bits': 'PLUGIN-FEATURES-KNOWN-BITS',
  'plugin-declares-proto3-optional': 'PLUGIN-FEATURE-PROTO3-OPTIONAL',
  'plugin-fails-only-through-the-error-field': 'PLUGIN-ERROR-EXIT-ZERO',
};

const dir = mkdtempSync(join(tmpdir(), 'specgate-rule-sharing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the rule cases against `plugin` (a compiled script) and counts the plugin's runs.
 * With `hangFirst`, the first run never answers (it sleeps until its case is stopped).
 */
async function ruleCases(label: string, plugin: string, opts: { hangFirst?: boolean; concurrency?: number; caseTimeoutMs?: number; cases?: string[]; executable?: boolean } = {}): Promise<{ result: RunResult; runs: number }> {
  const count = join(dir, `${label}.count`);
  writeFileSync(count, '');
  const wrapper = join(dir, `${label}.sh`);
  const hang = opts.hangFirst ? `if [ ! -s '${count}' ]; then echo run >> '${count}'; exec sleep 60; fi\n` : '';
  const start = opts.executable ? `'${plugin}'` : `'${process.execPath}' '${plugin}'`;
  writeFileSync(wrapper, `#!/bin/sh\n${hang}echo run >> '${count}'\nexec ${start} "$@"\n`, { mode: 0o755 });
  const result = await run({
    modules: [suite],
    suites: ['plugin'],
    cases: opts.cases ?? Object.keys(RULE_CASES),
    targets: { plugin: { section: { vars: { plugin_command: [wrapper] } }, label, secrets: [] } },
    seed: 7,
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    ...(opts.caseTimeoutMs ? { caseTimeoutMs: opts.caseTimeoutMs } : {}),
  });
  return { result, runs: readFileSync(count, 'utf8').split('\n').filter(Boolean).length };
}

function outcomes(r: RunResult): Record<string, string> {
  return Object.fromEntries(r.suites.flatMap((s) => s.cases).map((c) => [c.id, c.outcome]));
}

function failedRequirements(r: RunResult): string[] {
  return r.requirements.filter((q) => q.status === 'failed').map((q) => q.id);
}

describe.skipIf(built.skip)('plugin rule cases share one answer per fixture', () => {
  const fixtures = Object.keys(FIXTURES).length;

  it('run the reference plugin once per fixture for all the rule cases, and each passes', async () => {
    const { result, runs } = await ruleCases('reference', referencePlugin);
    expect(runs).toBe(fixtures);
    expect(outcomes(result)).toEqual(Object.fromEntries(Object.keys(RULE_CASES).map((id) => [id, 'passed'])));
    expect(result.requirements.filter((q) => Object.values(RULE_CASES).includes(q.id)).map((q) => q.status)).toEqual(Object.values(RULE_CASES).map(() => 'passed'));
  });

  it('hand a fault only to the case of the rule it breaks', async () => {
    const { result, runs } = await ruleCases('absolute-name', absoluteNameFault);
    expect(runs).toBe(fixtures);
    expect(failedRequirements(result)).toEqual(['PLUGIN-FILE-NAME-RELATIVE']);
    const cases = result.suites.flatMap((s) => s.cases);
    const failing = cases.find((c) => c.id === 'plugin-file-names-are-relative');
    expect(failing?.outcome).toBe('failed');
    expect(failing?.failures.every((f) => f.requirement === 'PLUGIN-FILE-NAME-RELATIVE')).toBe(true);
    expect(cases.filter((c) => c.outcome !== 'passed').map((c) => c.id)).toEqual(['plugin-file-names-are-relative']);
  });

  it('never pass a rule on answers that crashed: the crash fails its own rule, the rule it left nothing to judge is not judged', async () => {
    // the plugin exits 1 on optional.proto, the one fixture FEATURE_PROTO3_OPTIONAL applies to
    const { result, runs } = await ruleCases('crash', crashFault);
    expect(runs).toBe(fixtures);
    expect(failedRequirements(result)).toEqual(['PLUGIN-ERROR-EXIT-ZERO']);
    const cases = result.suites.flatMap((s) => s.cases);
    const proto3 = cases.find((c) => c.id === 'plugin-declares-proto3-optional');
    // nothing to judge (an evidence count of zero, with the reason), not a harness fault
    expect(proto3?.outcome).toBe('skipped');
    expect(proto3?.reason).toMatch(/not judged: PLUGIN-FEATURE-PROTO3-OPTIONAL: every input it applies to ended without anything to judge \(fixture optional: exit 1\)/);
    const verdict = result.requirements.find((q) => q.id === 'PLUGIN-FEATURE-PROTO3-OPTIONAL');
    expect(verdict?.status).toBe('untested');
    expect(verdict?.evidence ?? 0).toBe(0);
    // every other rule was judged on the four fixtures that were answered
    expect(cases.filter((c) => c.outcome === 'passed').map((c) => c.id).sort()).toEqual(
      Object.keys(RULE_CASES).filter((id) => id !== 'plugin-declares-proto3-optional' && id !== 'plugin-fails-only-through-the-error-field').sort(),
    );
  });

  it('never pass the case whose shared run was stopped; the next case runs the plugin afresh', async () => {
    // one case at a time: the first case's first run hangs until the case times out. The case
    // budget stays under a plugin run's own 10 s deadline (so the case, not the run, is stopped)
    // and leaves the next case, which runs the plugin once per fixture, room on a loaded machine
    const { result, runs } = await ruleCases('stopped', referencePlugin, { hangFirst: true, concurrency: 1, caseTimeoutMs: 8_000 });
    const cases = result.suites.flatMap((s) => s.cases);
    const [first, ...rest] = Object.keys(RULE_CASES);
    expect(cases.find((c) => c.id === first)?.outcome).toBe('errored');
    expect(rest.map((id) => cases.find((c) => c.id === id)?.outcome)).toEqual(rest.map(() => 'passed'));
    expect(result.requirements.find((q) => q.id === RULE_CASES[first ?? ''])?.status).not.toBe('passed');
    // the hung run, then one run per fixture for the others
    expect(runs).toBe(fixtures + 1);
  }, 60_000);
});

/**
 * Cases that send a stored fixture as a compiler builds it: three compare the answer to shop.proto
 * with answers to other forms of it, and PLUGIN-FILE-TO-GENERATE asks for shop.proto and
 * event.proto alone among its six requests.
 */
const BEHAVIOUR_CASES = ['plugin-ignores-unknown-request-fields', 'plugin-accepts-missing-or-other-compiler-version', 'plugin-answers-the-same-request-the-same-way', 'plugin-generates-only-files-to-generate'];

describe.skipIf(built.skip)('plugin cases share the runs of the same request bytes', () => {
  it('run the plugin once per request and round, and each case passes', async () => {
    const { result, runs } = await ruleCases('behaviour', referencePlugin, { cases: BEHAVIOUR_CASES });
    expect(outcomes(result)).toEqual(Object.fromEntries(BEHAVIOUR_CASES.map((id) => [id, 'passed'])));
    // shop.proto three times (the baselines' two rounds, the third of PLUGIN-DETERMINISTIC), two
    // unknown-field forms, three compiler versions, and five more file_to_generate requests:
    // 13 runs where each case running its own would start 18
    expect(runs).toBe(13);
  });

  it('still give a comparison of runs processes of its own: an answer that changes each run fails PLUGIN-DETERMINISTIC', async () => {
    const { result, runs } = await ruleCases('nondeterministic', nondeterministicFault, { cases: BEHAVIOUR_CASES });
    expect(failedRequirements(result)).toEqual(['PLUGIN-DETERMINISTIC']);
    expect(runs).toBe(13);
  });

  it('keep no answer above SHARED_ANSWER_BYTES for later cases: one case after another, each runs the plugin itself', async () => {
    // a plugin answering every request with one file of 2 MiB (a scripted plugin: prepared bytes)
    const answer = join(dir, 'big-answer.pb');
    writeFileSync(answer, encodeResponse({ file: [{ name: 'big.txt', content: 'x'.repeat(2 * SHARED_ANSWER_BYTES) }] }));
    const plugin = writeScriptedPlugin(dir, 'protoc-gen-big', { response: answer, record: join(dir, 'big-request.pb') });
    const cases = ['plugin-ignores-unknown-request-fields', 'plugin-accepts-missing-or-other-compiler-version'];
    const { result, runs } = await ruleCases('big', plugin, { cases, concurrency: 1, executable: true });
    expect(outcomes(result)).toEqual(Object.fromEntries(cases.map((id) => [id, 'passed'])));
    // each case's own baseline and its second run (2 + 2), then its forms (2 + 3): 9, where
    // sharing the baselines would start 7
    expect(runs).toBe(9);
  });
});
