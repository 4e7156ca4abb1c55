import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzCase, fuzzRequest, targetParameters } from '../../../../suites/plugin/fuzz/fuzz-request.js';
import { judgeCase, type CaseRuns } from '../../../../suites/plugin/fuzz/judge-case.js';
import type { RunSummary } from '../../../../suites/plugin/fuzz/plugin-runs.js';

describe('fuzz requests: parameters', () => {
  it('without vars.plugin_parameters about half the requests carry a generated parameter, written for their own files', () => {
    const requests = fc.sample(fuzzRequest({ parameters: targetParameters({}), goPackage: false }), { seed: 3, numRuns: 100 });
    const withParameter = requests.filter((r) => r.parameter !== undefined);
    expect(withParameter.length).toBeGreaterThan(25);
    expect(requests.length - withParameter.length).toBeGreaterThan(25);
    for (const r of withParameter) {
      expect(r.parameter).toMatch(/^suffix=[^,]+(,chunk_lines=\d+)?(,insert=[^,]+@messages)?$/);
      const insert = /insert=([^@]+)@/.exec(r.parameter ?? '')?.[1];
      if (insert !== undefined) expect(insert.startsWith((r.file_to_generate[0] ?? '').replace(/\.proto$/, ''))).toBe(true);
    }
    // the same seed, the same requests
    expect(fc.sample(fuzzRequest({ parameters: [], goPackage: false }), { seed: 3, numRuns: 100 })).toEqual(requests);
  });

  it('with vars.plugin_parameters only those values are sent', () => {
    const given = targetParameters({ plugin_parameters: ['paths=source_relative', 'x'] });
    const sent = new Set(fc.sample(fuzzRequest({ parameters: given, goPackage: false }), { seed: 3, numRuns: 100 }).map((r) => r.parameter));
    expect(sent).toEqual(new Set(['paths=source_relative', 'x']));
  });
});

const exit1: RunSummary = {
  failure: { requirement: 'PLUGIN-ERROR-EXIT-ZERO', kind: 'exit', message: 'exit 1' },
  findings: [], errored: false, bytes: 'exit:1', files: {}, created: new Set(), targets: new Set(), outcome: 'exit 1',
};
const runs: CaseRuns = { run: () => Promise.resolve(exit1) };

describe('fuzz judging: a parameter the plugin refuses', () => {
  const [c] = fc.sample(fuzzCase({ parameters: [], goPackage: false }).filter((x) => x.request.parameter !== undefined), { seed: 1, numRuns: 1 });
  it('is set aside when the fuzzer generated it', async () => {
    if (!c) throw new Error('no case');
    const v = await judgeCase(c, { runs, goPackage: false, ownParameter: true, stopsAt: () => true });
    expect(v.found).toEqual([]);
  });
  it('is a finding when the target named it', async () => {
    if (!c) throw new Error('no case');
    const v = await judgeCase(c, { runs, goPackage: false, stopsAt: () => true });
    expect(v.found.map((f) => f.finding.requirement)).toEqual(['PLUGIN-ERROR-EXIT-ZERO']);
  });
});
