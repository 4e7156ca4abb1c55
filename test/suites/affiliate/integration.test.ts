import { beforeAll, describe, expect, it } from 'vitest';
import { pool } from '../../../src/engine/run-suite.js';
import { fromRoot } from '../../../src/paths.js';
import { CHROMIUM_HINT, findChromium } from '../../../src/targets/browser/find-chromium.js';
import { INTEGRATION_FAULTS } from '../../fixtures/affiliate/integrations/faults.js';
import { builtSpecgate, declarePeer, requirePeer } from '../../helpers/peer.js';
import { FAULT_INTEGRATION, REFERENCE_INTEGRATION, explain, integrationCases, runCase, statusOf, type Verdicts } from './run-integration.js';

/**
 * The integration side of the affiliate suite, judged in headless Chromium: the reference
 * integration passes every AFF-INT-* requirement in every case; each planted-fault integration
 * fails exactly the requirement it breaks (and what its deviation necessarily breaks with it)
 * in the cases that show it; an integration that never listens is judged on nothing. Needs
 * `npm run build` (the integrations run compiled) and Chromium.
 */
const built = builtSpecgate(REFERENCE_INTEGRATION, FAULT_INTEGRATION);
const chromium = requirePeer('chromium', findChromium() !== undefined, CHROMIUM_HINT);
declarePeer(built);
declarePeer(chromium);
const skip = built.skip || chromium.skip;
const PARALLEL = 2;
const node = (script: string, ...args: string[]): string[] => [process.execPath, script, ...args];
const REFERENCE = '(reference integration)';
const cases = integrationCases();
const MUST_REQUIREMENTS = [...new Set(cases.flatMap((c) => c.requirements))].sort();

const runs = new Map<string, Verdicts>();

/** Runs the named cases of one integration and gathers the verdicts per requirement. */
async function judge(command: string[], caseIds: readonly string[]): Promise<Verdicts> {
  const out: Verdicts = {};
  for (const c of cases.filter((k) => caseIds.includes(k.id))) {
    const { verdicts } = await runCase(c, command);
    for (const [id, verdict] of Object.entries(verdicts)) (out[id] ??= []).push({ caseId: c.id, verdict });
  }
  return out;
}

describe.skipIf(skip)('integration side of the affiliate suite, in headless Chromium', () => {
  beforeAll(async () => {
    // The reference's cases are split in two so the pool keeps both workers busy.
    const half = Math.ceil(cases.length / 2);
    const jobs: Array<[string, string[], readonly string[]]> = [
      [`${REFERENCE} 1`, node(fromRoot('dist', REFERENCE_INTEGRATION)), cases.slice(0, half).map((c) => c.id)],
      [`${REFERENCE} 2`, node(fromRoot('dist', REFERENCE_INTEGRATION)), cases.slice(half).map((c) => c.id)],
      ...Object.entries(INTEGRATION_FAULTS).map(([name, f]): [string, string[], readonly string[]] => [name, node(FAULT_INTEGRATION, '--fault', name), f.shownBy]),
    ];
    await pool(jobs, PARALLEL, async ([name, command, ids]) => {
      runs.set(name, await judge(command, ids));
    });
  }, 240_000);

  it('the reference integration (the embedded default) passes every integration requirement in every case', () => {
    const verdicts: Verdicts = {};
    for (const part of [`${REFERENCE} 1`, `${REFERENCE} 2`]) for (const [id, vs] of Object.entries(runs.get(part) ?? {})) (verdicts[id] ??= []).push(...vs);
    expect(explain(verdicts)).toEqual([]);
    expect(statusOf(verdicts)).toEqual(Object.fromEntries(MUST_REQUIREMENTS.map((id) => [id, 'passed'])));
    expect(Object.values(verdicts).flat().length).toBe(cases.reduce((n, c) => n + c.requirements.length, 0));
  });

  for (const [name, fault] of Object.entries(INTEGRATION_FAULTS)) {
    it(`${name} (${fault.description}) fails ${fault.requirement} only`, () => {
      const verdicts = runs.get(name);
      expect(verdicts, 'the run of this fault').toBeDefined();
      const statuses = statusOf(verdicts ?? {});
      const failed = Object.keys(statuses).filter((id) => statuses[id] === 'failed').sort();
      expect(failed, explain(verdicts ?? {}).join('\n')).toEqual([fault.requirement, ...(fault.alsoBreaks ?? [])].sort());
    });
  }

  it('has a planted-fault integration for every integration requirement', () => {
    const planted = new Set(Object.values(INTEGRATION_FAULTS).map((f) => f.requirement));
    expect(MUST_REQUIREMENTS.filter((id) => !planted.has(id))).toEqual([]);
  });
});

describe.skipIf(skip)('an integration that never listens', () => {
  it('leaves every requirement of a case unjudged, saying it did not accept connections and how it ended', async () => {
    const c = cases.find((k) => k.id === 'integration-signup');
    expect(c).toBeDefined();
    if (!c) return;
    const { verdicts } = await runCase(c, [process.execPath, '-e', 'process.stderr.write("no port today\\n"); process.exit(3)']);
    for (const id of c.requirements) {
      const v = verdicts[id];
      expect(v && 'unjudged' in v ? v.unjudged : v, id).toMatch(/did not accept connections on http:\/\/127\.0\.0\.1:\d+ within 20 s \(it ended: .*exit status 3\)|registered no lead|sent the platform no request/);
    }
    const server = verdicts['AFF-INT-KEY-SERVER-SIDE'];
    expect(server && 'unjudged' in server ? server.unjudged : '').toMatch(/stderr: no port today/);
  }, 60_000);
});
