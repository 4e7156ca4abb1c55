/**
 * A broken suite file stops the run before anything runs: exit 2, every problem named with
 * file:line:column and the rule it breaks, and no report written (a half-run is never reported).
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { DEMO_MODULE, assertBuilt, runCli, tempDir } from './cli.js';

interface Breakage {
  name: string;
  file: string;
  /** Replaces the first occurrence of `from` with `to`. */
  from: string;
  to: string;
  /** The error must point at where `needle` starts (1-based line and column). */
  needle: string;
  code: string;
  rule: RegExp;
}

const BREAKAGES: Breakage[] = [
  {
    name: 'YAML syntax error',
    file: 'cases/greeting.yaml',
    from: 'description: A greeting names the one greeted',
    to: 'description: A greeting: names the one greeted',
    needle: 'A greeting: names',
    code: 'SG_SUITE_SYNTAX',
    rule: /YAML syntax: Nested mappings are not allowed/,
  },
  {
    name: 'unknown key',
    file: 'cases/filter.yaml',
    from: '  description: The filter',
    to: '  descripton: The filter',
    needle: 'descripton:',
    code: 'SG_SUITE_SCHEMA',
    rule: /unknown key "descripton"/,
  },
  {
    name: 'unknown requirement',
    file: 'cases/tokens.yaml',
    from: 'requirements: [DEMO-TOKEN-ISSUE]',
    to: 'requirements: [DEMO-TOKEN-ISUE]',
    needle: 'DEMO-TOKEN-ISUE',
    code: 'SG_SUITE_SCHEMA',
    rule: /unknown requirement "DEMO-TOKEN-ISUE"; add it to requirements.yaml or fix the ID/,
  },
  {
    name: 'bad expression',
    file: 'cases/echo.yaml',
    from: 'url: "${base_url}/echo"',
    to: 'url: "${base_url +}/echo"',
    needle: '"${base_url +}/echo"',
    code: 'SG_SUITE_SCHEMA',
    rule: /bad expression \$\{base_url \+\}/,
  },
  {
    name: 'unknown generator',
    file: 'cases/numbers.yaml',
    from: 'generate: demo.smallInt',
    to: 'generate: demo.tinyInt',
    needle: 'demo.tinyInt',
    code: 'SG_SUITE_UNKNOWN',
    rule: /no generator named "demo.tinyInt"/,
  },
  {
    name: 'misspelt argument of a typed check',
    file: 'cases/greeting.yaml',
    from: 'runs: 30 }',
    to: 'rnus: 30 }',
    needle: 'rnus: 30',
    code: 'SG_SUITE_SCHEMA',
    rule: /demo\.nameEcho: unknown argument "rnus" \(check its spelling\)/,
  },
  {
    name: 'failure attributed to a requirement the case does not list',
    file: 'cases/tokens.yaml',
    from: 'with: { requirement: DEMO-TOKEN-ISSUE }',
    to: 'with: { requirement: DEMO-TOKEN-ISSUED }',
    needle: 'DEMO-TOKEN-ISSUED',
    code: 'SG_SUITE_SCHEMA',
    rule: /"DEMO-TOKEN-ISSUED" is not one of this case's requirements/,
  },
  {
    name: 'misspelt variable a typed check sets',
    file: 'cases/tokens.yaml',
    from: 'query: { token: "${token}" }',
    to: 'query: { token: "${tokn}" }',
    needle: '"${tokn}"',
    code: 'SG_SUITE_SCHEMA',
    rule: /reads \$\{tokn\}, which nothing sets before this step; did you mean \$\{token\}\?/,
  },
];

describe.each(BREAKAGES)('a suite with a $name', (b) => {
  const tmp = tempDir();
  let res: Awaited<ReturnType<typeof runCli>>;
  let line: number;
  let column: number;
  const report = (): string => join(tmp.dir, 'out', 'results.json');

  beforeAll(async () => {
    assertBuilt();
    // a copy of the demo suite, loaded through a module that points the demo code at it
    cpSync(fromRoot('test/fixtures/demo/suite'), join(tmp.dir, 'suite'), { recursive: true });
    const file = join(tmp.dir, 'suite', b.file);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(b.from);
    const broken = text.replace(b.from, b.to);
    writeFileSync(file, broken);
    const before = broken.slice(0, broken.indexOf(b.needle)).split('\n');
    line = before.length;
    column = (before[before.length - 1]?.length ?? 0) + 1;
    const mod = join(tmp.dir, 'broken-demo.mjs');
    writeFileSync(mod, `import { suite as demo } from ${JSON.stringify(pathToFileURL(DEMO_MODULE).href)};\nexport const suite = { ...demo, dir: ${JSON.stringify(join(tmp.dir, 'suite'))} };\n`);
    res = await runCli(['run', '--suite-module', mod, '--suite', 'demo', '--report', `json=${report()}`, '--report', `junit=${join(tmp.dir, 'out', 'junit.xml')}`], { cwd: tmp.dir });
  });
  afterAll(() => tmp.remove());

  it('exits 2', () => {
    expect(res.code).toBe(2);
  });

  it('names file:line:column, the error code and the rule broken', () => {
    const at = new RegExp(`suite/${b.file.replace(/\./g, '\\.')}:(\\d+):(\\d+): `);
    const m = at.exec(res.stderr);
    expect(m, res.stderr).not.toBeNull();
    expect(Number(m?.[1])).toBe(line);
    expect(Number(m?.[2])).toBe(column);
    expect(res.stderr).toContain(`[${b.code}]`);
    expect(res.stderr).toMatch(b.rule);
  });

  it('runs nothing and writes no report', () => {
    expect(res.stdout).toBe('');
    expect(existsSync(report())).toBe(false);
    expect(existsSync(join(tmp.dir, 'out'))).toBe(false);
  });
});

describe('several broken files at once', () => {
  const tmp = tempDir();
  afterAll(() => tmp.remove());

  it('reports every problem, not just the first (one per file here: a file that breaks its schema gets no further checks)', async () => {
    assertBuilt();
    cpSync(fromRoot('test/fixtures/demo/suite'), join(tmp.dir, 'suite'), { recursive: true });
    for (const b of BREAKAGES.slice(1)) {
      const file = join(tmp.dir, 'suite', b.file);
      writeFileSync(file, readFileSync(file, 'utf8').replace(b.from, b.to));
    }
    const mod = join(tmp.dir, 'broken-demo.mjs');
    writeFileSync(mod, `import { suite as demo } from ${JSON.stringify(pathToFileURL(DEMO_MODULE).href)};\nexport const suite = { ...demo, dir: ${JSON.stringify(join(tmp.dir, 'suite'))} };\n`);
    const res = await runCli(['run', '--suite-module', mod, '--suite', 'demo', '--report', `json=${join(tmp.dir, 'r.json')}`], { cwd: tmp.dir });
    expect(res.code).toBe(2);
    for (const b of BREAKAGES.slice(1)) expect(res.stderr).toMatch(b.rule);
    expect(existsSync(join(tmp.dir, 'r.json'))).toBe(false);
  });
});
