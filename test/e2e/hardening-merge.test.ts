/**
 * `specgate merge` judges by the installed suites, never by what results files say of
 * themselves. Two shards of a failing run (the demo suite against a service that loses an int64
 * id, a MUST failure) are rewritten the ways that would turn the failure into a pass; each
 * rewrite is refused (exit 2, naming the file and what does not fit, no report written) or
 * judged as the run was (the catalog's level and text win, statuses are recomputed).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specgateVersion } from '../../src/reporting/json.js';
import { stringifyJson } from '../../src/reporting/json-text.js';
import { parseJsonLossless } from '../../src/targets/body-parse.js';
import { CLOCK_HOOK, DEMO_MODULE, assertBuilt, demoSection, runCli, runDemo, tempDir, writeProfile, type CliResult } from './cli.js';
import { faultServers } from './fault-server.js';

const tmp = tempDir();
const faultServer = faultServers();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

interface CaseJson {
  id: string;
  requirements: string[];
  outcome: string;
  reason: string | null;
  notApplicable: boolean;
  baseline: string | null;
  failures: { requirement: string; message: string }[];
}

/** The parts of a JSON report these tests rewrite or read. */
interface ReportJson {
  specgate: { version: string; format: number };
  strict: boolean;
  stricter: boolean;
  summary: Record<string, unknown>;
  requirements: { id: string; suite: string; level: string; status: string; text: string; reason: string | null; failures: unknown[] }[];
  suites: { name: string; version: string; cases: CaseJson[] }[];
  shard?: { index: number; total: number; selected: Record<string, string[]> };
  interrupted?: unknown;
}

const read = (file: string): ReportJson => parseJsonLossless(readFileSync(file, 'utf8')) as ReportJson;
const holdsBigId = (r: ReportJson): boolean => r.suites.some((s) => s.cases.some((c) => c.id === 'big-id'));
const bigId = (r: ReportJson): CaseJson => r.suites.flatMap((s) => s.cases).find((c) => c.id === 'big-id') as CaseJson;
const requirement = (r: ReportJson, id: string): ReportJson['requirements'][number] | undefined => r.requirements.find((q) => q.id === id);

/** The results.json of shards 1/2 and 2/2 of the failing run, as the runs wrote them. */
let shards: string[] = [];

beforeAll(async () => {
  shards = await Promise.all(
    [1, 2].map(async (k) => {
      // each shard against its own service, as CI machines would run them
      const service = await faultServer('lossy-id');
      const profile = writeProfile(tmp.dir, `shard-${k}`, { suites: { demo: demoSection(service.url, { clock: CLOCK_HOOK }) } });
      const dir = join(tmp.dir, `shard-${k}`);
      mkdirSync(dir);
      const run = await runDemo(dir, ['--target', profile, '--seed', '7', '--shard', `${k}/2`]);
      if (!run.report) throw new Error(`shard ${k} wrote no report: ${run.stderr}`);
      return run.json;
    }),
  );
}, 120_000);

let forgeries = 0;
/**
 * Copies of both shards' reports in a fresh folder, each rewritten by `edit`; the paths, in
 * shard order. The merged report of these goes to `merged.json` beside them.
 */
function forged(edit: (r: ReportJson) => void): string[] {
  const dir = join(tmp.dir, `forged-${++forgeries}`);
  mkdirSync(dir);
  return shards.map((file, i) => {
    const r = read(file);
    edit(r);
    const out = join(dir, `shard-${i + 1}.json`);
    writeFileSync(out, stringifyJson(r, 2));
    return out;
  });
}

/** `specgate merge` of these files with the demo suite installed; the merged report when one was written. */
async function merge(files: string[], args: string[] = []): Promise<CliResult & { merged: ReportJson | undefined }> {
  const json = join(dirname(files[0] as string), 'merged.json');
  const res = await runCli(['merge', '--suite-module', DEMO_MODULE, ...files, '--report', `json=${json}`, '--report', `junit=${join(dirname(json), 'junit.xml')}`, ...args], { cwd: tmp.dir });
  return { ...res, merged: existsSync(json) ? read(json) : undefined };
}

/** Refused before anything is judged: exit 2, the message, no report, no stack. */
function expectRefused(res: CliResult & { merged: ReportJson | undefined }, message: RegExp): void {
  expect(res.stderr).toMatch(message);
  expect(res.stderr).toMatch(/^specgate: error \[SG_(USAGE|CONFIG)\]/);
  expect(res.stderr).not.toMatch(/this is a bug|\n\s+at /);
  expect(res.code).toBe(2);
  expect(res.merged).toBeUndefined();
  expect(res.stdout).not.toMatch(/conformant/);
}

/** Judged as the run was: DEMO-BIG-ID failed at level MUST, exit 1. */
function expectNotConformant(res: CliResult & { merged: ReportJson | undefined }): void {
  expect(res.merged ? requirement(res.merged, 'DEMO-BIG-ID') : undefined).toMatchObject({ level: 'MUST', status: 'failed' });
  expect(res.stdout).toContain('not conformant');
  expect(res.code).toBe(1);
}

describe('merging shards of a failing run', () => {
  it('as written: the one MUST failure makes it not conformant, and each part holds some cases', async () => {
    expect(shards.map((f) => read(f).suites[0]?.cases.length)).not.toContain(0);
    expect(shards.filter((f) => holdsBigId(read(f)))).toHaveLength(1);
    const res = await merge(forged(() => undefined));
    expect(res.stderr).toBe('');
    expectNotConformant(res);
  });

  it('a MUST relabelled MAY in every shard: the installed level decides, and the merge says the files differ', async () => {
    const res = await merge(
      forged((r) => {
        for (const q of r.requirements) if (q.id === 'DEMO-BIG-ID') q.level = 'MAY';
      }),
    );
    expectNotConformant(res);
    expect(res.stdout).toMatch(/warning: .*shard-1\.json describes 1 requirement\(s\) of suite demo otherwise than the installed catalog \(DEMO-BIG-ID: level MAY \(not MUST\)\): the catalog decides/);
  });

  it('statuses, counts, the verdict, gating flags and baseline marks rewritten to pass: recomputed from the cases', async () => {
    const res = await merge(
      forged((r) => {
        for (const q of r.requirements) Object.assign(q, { status: 'passed', failures: [], reason: null });
        r.summary = { ...r.summary, exitCode: 0, gatingFailures: 0, verdict: 'conformant at the gating level (MUST)' };
        Object.assign(r, { strict: false, stricter: false });
        if (holdsBigId(r)) bigId(r).baseline = 'expected-failure';
      }),
    );
    expectNotConformant(res);
    expect(res.merged?.summary).toMatchObject({ exitCode: 1, gatingFailures: 1 });
  });

  it('a requirement\'s text rewritten: the installed text is the one reported', async () => {
    const text = requirement(read(shards[0] as string), 'DEMO-BIG-ID')?.text;
    expect(text).toMatch(/\w/);
    const res = await merge(
      forged((r) => {
        for (const q of r.requirements) if (q.id === 'DEMO-BIG-ID') q.text = 'An id may lose its last digits.';
      }),
    );
    expectNotConformant(res);
    expect(requirement(res.merged as ReportJson, 'DEMO-BIG-ID')?.text).toBe(text);
    expect(res.stdout).toContain('(DEMO-BIG-ID: another text): the catalog decides');
  });

  it('a failed requirement marked excluded: the catalog does not exclude it, so it still fails', async () => {
    const res = await merge(
      forged((r) => {
        for (const q of r.requirements) if (q.id === 'DEMO-BIG-ID') Object.assign(q, { status: 'excluded', reason: 'ids are not ours to judge' });
      }),
    );
    expectNotConformant(res);
    expect(res.stdout).toContain('(DEMO-BIG-ID: excluded (it is not)): the catalog decides');
  });

  it('a failing case\'s requirements rewritten, its failure filed under a SHOULD that does not gate: refused', async () => {
    const res = await merge(
      forged((r) => {
        if (!holdsBigId(r)) return;
        const c = bigId(r);
        c.requirements = ['DEMO-VERSION-HEADER'];
        for (const f of c.failures) f.requirement = 'DEMO-VERSION-HEADER';
      }),
    );
    expectRefused(res, /shard-\d\.json: case demo\/big-id lists the requirements DEMO-VERSION-HEADER, but the installed suite's case judges DEMO-BIG-ID/);
  });

  it('a failing case marked not applicable: refused, no typed check of that case can find that', async () => {
    const res = await merge(
      forged((r) => {
        if (!holdsBigId(r)) return;
        Object.assign(bigId(r), { outcome: 'skipped', notApplicable: true, reason: 'this target has no int64 ids', failures: [] });
      }),
    );
    expectRefused(res, /shard-\d\.json: case demo\/big-id is marked not applicable, which only a typed check can find, and the installed case runs none/);
  });

  it('the interruption mark of a stopped shard deleted: its interrupted cases still make the merge an interrupted run (130)', async () => {
    const res = await merge(
      forged((r) => {
        delete r.interrupted;
        // what an interrupted run writes for a case it did not start
        if (holdsBigId(r)) Object.assign(bigId(r), { outcome: 'skipped', reason: 'interrupted', failures: [] });
      }),
    );
    expect(res.stdout).toContain('exit code 130: interrupted (SIGINT)');
    expect(res.code).toBe(130);
  });
});

describe('results of another suite or version', () => {
  it('plugin results relabelled as oauth are refused: the requirements are not oauth\'s', async () => {
    const dir = join(tmp.dir, 'plugin');
    mkdirSync(dir);
    const json = join(dir, 'results.json');
    const run = await runCli(['run', '--suite', 'plugin', '--case', 'plugin-accepts-any-field-order', '--report', `json=${json}`], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const r = read(json);
    for (const s of r.suites) s.name = 'oauth';
    for (const q of r.requirements) q.suite = 'oauth';
    const relabelled = join(dir, 'relabelled.json');
    writeFileSync(relabelled, stringifyJson(r, 2));
    const res = await merge([relabelled]);
    expectRefused(res, /relabelled\.json: its suite "oauth" lists \d+ requirement\(s\) suite oauth does not have \(PLUGIN-[A-Z-]+, .*\) and lacks \d+ of its requirements \(OAUTH-/);
  }, 60_000);

  it('demo results relabelled as oauth, and demo results where the demo suite is not installed, are refused', async () => {
    const relabelled = await merge(
      forged((r) => {
        for (const s of r.suites) s.name = 'oauth';
        for (const q of r.requirements) q.suite = 'oauth';
        if (r.shard) r.shard.selected = { oauth: r.shard.selected['demo'] ?? [] };
      }),
    );
    expectRefused(relabelled, /shard-1\.json: its suite "oauth" lists 12 requirement\(s\) suite oauth does not have \(DEMO-/);
    const files = forged(() => undefined);
    const json = join(dirname(files[0] as string), 'merged.json');
    const res = await runCli(['merge', ...files, '--report', `json=${json}`], { cwd: tmp.dir });
    expectRefused({ ...res, merged: existsSync(json) ? read(json) : undefined }, /shard-1\.json holds results of suite "demo", which this specgate does not have \(it has plugin, oauth, .*\): give the --suite-module the run loaded it with/);
  });

  it('a shard of another specgate version is refused, and merged with a warning under --allow-version-mix', async () => {
    const files = forged((r) => {
      if (r.shard?.index === 2) r.specgate.version = '0.0.1';
    });
    expectRefused(await merge(files), new RegExp(`shard-2\\.json was written by specgate 0\\.0\\.1, and this is specgate ${specgateVersion().replace(/\./g, '\\.')}: rerun those parts .*or give --allow-version-mix`));
    const mixed = await merge(files, ['--allow-version-mix']);
    expectNotConformant(mixed);
    expect(mixed.stdout).toMatch(/warning: .*shard-2\.json was written by specgate 0\.0\.1, .*: merged anyway \(--allow-version-mix\); the installed catalog decides/);
  });

  it('a shard of another version of the suite is refused, and merged with a warning under --allow-version-mix', async () => {
    const files = forged((r) => {
      for (const s of r.suites) if (r.shard?.index === 1) s.version = '9.9.9';
    });
    expectRefused(await merge(files), new RegExp(`shard-1\\.json holds results of suite demo version 9\\.9\\.9, and the installed one is version ${specgateVersion().replace(/\./g, '\\.')}`));
    const mixed = await merge(files, ['--allow-version-mix']);
    expectNotConformant(mixed);
    // the merged report names the version that judged it: the installed one
    expect(mixed.merged?.suites.map((s) => s.version)).toEqual([specgateVersion()]);
  });
});

describe('a suite kept outside specgate, with a version of its own', () => {
  it('the run records that version, and a merge where another version of the suite is installed refuses it', async () => {
    const dir = join(tmp.dir, 'versioned');
    mkdirSync(dir);
    // the demo suite as its own release would ship it
    const module = join(dir, 'demo-2.mjs');
    writeFileSync(module, `import { suite as demo } from ${JSON.stringify(pathToFileURL(DEMO_MODULE).href)};\nexport const suite = { ...demo, version: '2.0.0' };\n`);
    const json = join(dir, 'results.json');
    const run = await runCli(['run', '--suite-module', module, '--suite', 'demo', '--case', 'hello-world', '--report', `json=${json}`], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(read(json).suites.map((s) => s.version)).toEqual(['2.0.0']);
    expect(read(json).specgate.version).toBe(specgateVersion());
    // installed: the demo suite that declares no version of its own, so it has specgate's
    const res = await merge([json]);
    expectRefused(res, new RegExp(`results\\.json holds results of suite demo version 2\\.0\\.0, and the installed one is version ${specgateVersion().replace(/\./g, '\\.')}`));
    const same = await runCli(['merge', '--suite-module', module, '--allow-partial', json, '--report', `json=${join(dir, 'same.json')}`], { cwd: dir });
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    expect(read(join(dir, 'same.json')).suites.map((s) => s.version)).toEqual(['2.0.0']);
  }, 60_000);
});

describe('shard labels', () => {
  it('the failing shard left out and the other relabelled as the whole run (1/1 of its own cases): refused unless a partial merge is asked for', async () => {
    const [passing] = forged((r) => {
      if (!r.shard) return;
      r.shard = { index: 1, total: 1, selected: { demo: r.suites.flatMap((s) => s.cases.map((c) => c.id)) } };
    }).filter((f) => !holdsBigId(read(f)));
    const alone = [passing as string];
    const res = await merge(alone);
    expectRefused(res, /the merged results hold \d of the 10 cases of suite demo; not among them: .*: merge the results of every shard and side of the run, or give --allow-partial/);
    const partial = await merge(alone, ['--allow-partial']);
    expect(partial.stdout).toMatch(/warning: the merged results hold \d of the 10 cases of suite demo; not among them: .* \(--allow-partial\)/);
    expect(partial.code).toBe(0);
  });

  it('the two shards\' indexes swapped: refused, each holds cases of the other\'s shard', async () => {
    const res = await merge(
      forged((r) => {
        if (r.shard) r.shard.index = 3 - r.shard.index;
      }),
    );
    expectRefused(res, /shard-1\.json says it is shard 2\/2, but its case demo\/[a-z-]+ falls in shard 1\/2 of that run's split: merge the reports as each shard wrote them/);
  });

  it('the same shard given twice is refused', async () => {
    const [first] = forged(() => undefined);
    const again = join(tmp.dir, 'again.json');
    writeFileSync(again, readFileSync(first as string));
    expectRefused(await merge([first as string, again]), /shard-1\.json and .*again\.json are both shard 1\/2: give each shard's results\.json once/);
  });
});
