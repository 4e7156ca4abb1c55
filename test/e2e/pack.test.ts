/**
 * specgate as an installable package: `npm pack` gives a tarball with the built code, the
 * suites and the schemas (no tests, fixtures or benchmarks) under a size budget, and that
 * tarball installs into an empty folder, where `npx specgate run` passes on the bundled
 * reference implementations. The install uses npm's cache (`--prefer-offline`): every
 * dependency is there after `npm ci`.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { assertBuilt, readReport, tempDir } from './cli.js';

/** Packed tarball budget: built code (compiled without comments) about half, the suites (catalogs, cases, statement traces, READMEs) most of the rest. */
const MAX_PACKED_BYTES = 1_000_000;
const MAX_UNPACKED_BYTES = 4_000_000;

const tmp = tempDir('specgate-pack-');
afterAll(() => tmp.remove());

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

function npm(args: string[], cwd: string, timeout = 120_000): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, npm_config_update_notifier: 'false' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('npm pack', () => {
  let packed: Packed;
  beforeAll(() => {
    assertBuilt();
    // dist/ is built by `npm test` (pretest); `npm pack` on its own builds first (prepack).
    const r = npm(['pack', fromRoot(), '--pack-destination', tmp.dir, '--json', '--ignore-scripts'], tmp.dir);
    expect(r.status, r.stderr).toBe(0);
    packed = (JSON.parse(r.stdout) as Packed[])[0] as Packed;
  }, 120_000);

  it('ships the built code, the suites and the schemas', () => {
    const paths = packed.files.map((f) => f.path);
    for (const p of ['bin/specgate.js', 'dist/cli/main.js', 'dist/src/engine/run.js', 'dist/suites/index.js', 'dist/suites/oauth/index.js', 'suites/oauth/requirements.yaml', 'suites/plugin/suite.yaml', 'schemas/cases.schema.json', 'generators/plugin/well-known.json', 'reference/plugin/bin/protoc-gen-specgate', 'reference/plugin/bin/scripted-plugin', 'package.json', 'README.md']) {
      expect([p, paths.includes(p)]).toEqual([p, true]);
    }
  });

  it('leaves tests, fixtures, benchmarks, sources and source maps out', () => {
    const out = packed.files.map((f) => f.path).filter((p) => /^(dist\/)?(test|bench|examples)\//.test(p) || /\.(ts|map)$/.test(p) || p.includes('/fixtures/') || p.startsWith('.') || p.includes('.tsbuildinfo'));
    expect(out).toEqual([]);
  });

  it(`stays under the size budget (${MAX_PACKED_BYTES / 1e6} MB packed, ${MAX_UNPACKED_BYTES / 1e6} MB unpacked)`, () => {
    console.log(`[pack] ${packed.filename}: ${packed.files.length} files, ${(packed.size / 1e3).toFixed(0)} kB packed, ${(packed.unpackedSize / 1e3).toFixed(0)} kB unpacked`);
    expect(packed.size).toBeLessThan(MAX_PACKED_BYTES);
    expect(packed.unpackedSize).toBeLessThan(MAX_UNPACKED_BYTES);
  });

  it('installs into an empty folder, and `npx specgate run` there passes on the references, every suite', () => {
    const app = join(tmp.dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'gate', version: '1.0.0', private: true }));
    const install = npm(['install', join(tmp.dir, packed.filename), '--no-audit', '--no-fund', '--prefer-offline'], app, 240_000);
    expect(install.status, install.stderr).toBe(0);
    expect(existsSync(join(app, 'node_modules', 'specgate', 'dist', 'cli', 'main.js'))).toBe(true);
    // the scripted plugin every compiler check links to keeps its mode through pack and install
    expect(() => accessSync(join(app, 'node_modules', 'specgate', 'reference', 'plugin', 'bin', 'scripted-plugin'), constants.X_OK)).not.toThrow();
    // A check of the package, not of the suites (the seed sweep and the reference tests run them
    // whole): every suite loads, starts its reference and passes a third of its cases (shard 1
    // of 3, the same third every time), with one generated input per property.
    const run = spawnSync('npx', ['--no-install', 'specgate', 'run', '--runs', '1', '--shard', '1/3', '--no-color', '--report', 'json=out/results.json'], { cwd: app, encoding: 'utf8', timeout: 240_000 });
    const reportFile = join(app, 'out', 'results.json');
    let report: ReturnType<typeof readReport> | undefined;
    let unread = '';
    try {
      if (existsSync(reportFile)) report = readReport(reportFile);
    } catch (e) {
      unread = `the report does not read: ${(e as Error).message}`;
    }
    // the seed, every suite that did not load and every failure, so a failure here can be replayed (`--seed N`) and read
    const failures = (report?.suites ?? []).flatMap((s) => [
      ...(s.error ? [`${s.name}: ${s.error.code} ${s.error.message}`] : []),
      ...s.cases.filter((c) => c.outcome !== 'passed' && c.outcome !== 'skipped').map((c) => `${s.name}/${c.id} ${c.outcome}: ${[...c.failures.map((f) => `${f.requirement}: ${f.message}`), c.reason ?? ''].join('; ')}`),
    ]);
    const why = `seed ${report?.seed ?? '(no report)'} ${unread}\n${failures.join('\n')}\n${run.stdout.slice(-2000)}\n${run.stderr}`;
    expect(run.status, why).toBe(0);
    if (!report) throw new Error(why);
    expect(report.suites.map((s) => s.name).sort()).toEqual(['affiliate', 'collation', 'ctx-auth', 'events', 'merchant', 'oauth', 'plugin']);
    expect(report.summary.exitCode).toBe(0);
    for (const suite of report.suites) expect([suite.name, suite.cases.some((c) => c.outcome === 'passed')]).toEqual([suite.name, true]);
    expect(report.suites.flatMap((s) => s.cases).filter((c) => c.outcome === 'passed').length).toBeGreaterThan(100);
  }, 300_000);
});
