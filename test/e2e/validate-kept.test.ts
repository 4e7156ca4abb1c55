/**
 * `specgate validate` of built-in suite files checks them, once a run has kept the suites'
 * shapes (cli/suite-shapes.ts), without loading the suites' code, and prints what an earlier
 * check found while nothing changed (cli/validate-outcomes.ts): the same output and exit code
 * as a run that loads everything, with or without a cache.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { assertBuilt, runCli, tempDir } from './cli.js';

const tmp = tempDir();
beforeAll(() => assertBuilt());
afterAll(() => tmp.remove());

/** NODE_OPTIONS that note every file module the process loads, one URL a line, in `file`. */
function noting(file: string): string {
  writeFileSync(file, '');
  const hooks = join(tmp.dir, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(file)}, url + '\\n');\n  return next(url, context);\n}\n`);
  const register = join(tmp.dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  return `--import ${pathToFileURL(register).href}`;
}

describe('specgate validate, kept shapes', () => {
  it('prints the same loading the suites, from their kept shapes, from what an earlier check found, and without any cache', async () => {
    const files = [fromRoot('suites', 'plugin', 'requirements.yaml'), fromRoot('suites', 'ctx-auth', 'cases', 'authorization.yaml')];
    const args = ['validate', ...files];
    const cache = { SPECGATE_CACHE_DIR: join(tmp.dir, 'cache') };
    const elsewhere = join(tmp.dir, 'elsewhere');
    mkdirSync(elsewhere);
    const uncached = await runCli(args, { cwd: tmp.dir, env: { SPECGATE_NO_CACHE: '1' } });
    const first = await runCli(args, { cwd: tmp.dir, env: cache });
    // what is found is kept for the working directory messages name files from: elsewhere, the shapes serve
    const shapes = join(tmp.dir, 'shapes.txt');
    const fromShapes = await runCli(args, { cwd: elsewhere, env: { ...cache, NODE_OPTIONS: noting(shapes) } });
    const found = join(tmp.dir, 'found.txt');
    const fromFound = await runCli(args, { cwd: tmp.dir, env: { ...cache, NODE_OPTIONS: noting(found) } });
    expect(uncached).toEqual({ code: 0, stdout: files.map((f) => `ok  ${f}\n`).join(''), stderr: '' });
    expect(first).toEqual(uncached);
    expect(fromShapes).toEqual(uncached);
    expect(fromFound).toEqual(uncached);
    const loaded = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const suiteCode = /\/(suites|generators|reference)\/[^/]+\/|\/api\/verifiers\/|\/fast-check\//;
    // from the shapes: the loader, but neither the suites' code (checks, generators, references) nor the engine's API verifiers
    expect(loaded(shapes).some((u) => u.endsWith('/src/engine/loader/suite-loader.js'))).toBe(true);
    expect(loaded(shapes).filter((u) => suiteCode.test(u))).toEqual([]);
    // from what was found: not even the loader
    expect(loaded(found).some((u) => u.endsWith('/cli/validate-outcomes.js'))).toBe(true);
    expect(loaded(found).filter((u) => suiteCode.test(u) || u.endsWith('/src/engine/loader/suite-loader.js'))).toEqual([]);
  }, 120_000);
});
