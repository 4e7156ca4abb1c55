import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fromRoot } from '../../../../src/paths.js';
import { builtSpecgate, declarePeer } from '../../../helpers/peer.js';

/**
 * A fuzz finding becomes a regression case: `specgate fuzz plugin` writes the shrunk request as
 * a case file, and that file, committed into (a copy of) the plugin suite, fails on the faulty
 * plugin for the same requirement and passes on a well-behaved one, with no generator involved.
 */
const cli = builtSpecgate('suites/plugin/fuzz/fuzz-plugin.js', 'suites/plugin/checks/fuzz-request.js');
const work = mkdtempSync(join(tmpdir(), 'specgate-fuzz-regression-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function specgate(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [fromRoot('bin', 'specgate.js'), ...args], { encoding: 'utf8', timeout: 600_000, cwd: fromRoot() });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const fixture = (name: string): string => `${process.execPath} ${fromRoot('test', 'fixtures', 'plugin-fuzz', name)}`;

/** A copy of the plugin suite with `file` committed into its cases, loaded through a module file. */
function suiteWith(name: string, file: string): string {
  const dir = join(work, name);
  cpSync(fromRoot('suites', 'plugin'), join(dir, 'plugin'), { recursive: true });
  cpSync(file, join(dir, 'plugin', 'cases', 'fuzz-regressions.yaml'));
  const module = join(dir, 'suite.mjs');
  const original = pathToFileURL(fromRoot('dist', 'suites', 'plugin', 'index.js')).href;
  writeFileSync(module, `import { suite as plugin } from ${JSON.stringify(original)};\nexport const suite = { ...plugin, dir: ${JSON.stringify(join(dir, 'plugin'))} };\n`);
  return module;
}

interface CaseReport {
  id: string;
  outcome: string;
  failures: { requirement: string }[];
}

function runCase(module: string, id: string, plugin: string, name: string): { status: number | null; outcome: string | undefined; failed: string[]; output: string } {
  const json = join(work, `${name}.json`);
  const r = specgate(['run', '--suite-module', module, '--suite', 'plugin', '--plugin', plugin, '--case', id, '--report', `json=${json}`]);
  const report = JSON.parse(readFileSync(json, 'utf8')) as { suites: { cases: CaseReport[] }[] };
  const c = report.suites.flatMap((s) => s.cases).find((x) => x.id === id);
  return { status: r.status, outcome: c?.outcome, failed: (c?.failures ?? []).map((f) => f.requirement), output: r.stdout + r.stderr };
}

describe('specgate fuzz plugin writes a regression case', { timeout: 900_000 }, () => {
  declarePeer(cli);

  const scenarios = [
    { fault: 'crash-on-oneof.mjs', seed: '5', runs: '25', requirement: 'PLUGIN-IO-ONE-RESPONSE' },
    { fault: 'dotdot-on-nested-enum.mjs', seed: '8', runs: '25', requirement: 'PLUGIN-FILE-NAME-NO-DOT-COMPONENTS' },
  ];
  for (const s of scenarios) {
    it.skipIf(cli.skip)(`for ${s.fault}: it fails on that plugin for ${s.requirement} and passes on a well-behaved one`, () => {
      const out = join(work, `out-${s.fault}`);
      const fuzz = specgate(['fuzz', 'plugin', '--plugin', fixture(s.fault), '--runs', s.runs, '--seed', s.seed, '--out', out]);
      expect(fuzz.status, fuzz.stdout + fuzz.stderr).toBe(1);
      expect(fuzz.stdout.startsWith(`${s.requirement}: `)).toBe(true);
      const seed = fuzz.stdout.match(/replay: .*--seed (\d+)/)?.[1] ?? '';
      const stem = `fuzz-plugin-${seed}-${s.requirement.toLowerCase()}`;
      const file = join(out, `${stem}.yaml`);
      expect(fuzz.stdout).toContain(`wrote ${file}`);

      const text = readFileSync(file, 'utf8');
      expect(text.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=.*cases\.schema\.json$/);
      const [item] = parse(text) as { id: string; requirements: string[]; needs: string[]; description: string; steps: { check: string; with: { request: unknown } }[] }[];
      const id = `fuzz-${seed}-${s.requirement.toLowerCase()}`;
      expect(item?.id).toBe(id);
      expect(item?.requirements).toEqual([s.requirement]);
      expect(item?.needs).toEqual(['plugin_command']);
      expect(item?.description).toContain(`--seed ${seed}`);
      expect(item?.steps).toEqual([{ check: 'plugin.fuzzRequest', with: { request: JSON.parse(readFileSync(join(out, `${stem}.json`), 'utf8')) } }]);

      const module = suiteWith(`suite-${s.fault}`, file);
      const broken = runCase(module, id, fixture(s.fault), `broken-${s.fault}`);
      expect({ status: broken.status, outcome: broken.outcome, failed: broken.failed }, broken.output).toEqual({ status: 1, outcome: 'failed', failed: [s.requirement] });
      const fixed = runCase(module, id, fixture('well-behaved.mjs'), `fixed-${s.fault}`);
      expect({ status: fixed.status, outcome: fixed.outcome, failed: fixed.failed }, fixed.output).toEqual({ status: 0, outcome: 'passed', failed: [] });
    });
  }
});
