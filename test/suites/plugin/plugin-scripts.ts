import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { fromRoot } from '../../../src/paths.js';

/**
 * Plugin scripts (planted faults, control plugins, the reference plugin) made runnable from
 * their TypeScript sources: each script and every module it imports by a relative path is
 * transpiled (types dropped, nothing checked: the type check is the build's) into `outDir`,
 * under the same paths as in the repository, so the relative imports hold. A test then runs the
 * current sources as the processes a plugin is, without a build of the whole project.
 */
export function runnableScript(source: string, outDir: string): string {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'package.json'), '{ "type": "module" }\n');
  const root = fromRoot();
  const pending = [resolve(root, source)];
  const done = new Set<string>();
  while (pending.length) {
    const file = pending.pop() ?? '';
    if (done.has(file)) continue;
    done.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)\.js'/g)) {
      const dep = resolve(dirname(file), `${m[1] ?? ''}.ts`);
      if (existsSync(dep)) pending.push(dep);
    }
    const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 }, fileName: file }).outputText;
    const out = join(outDir, relative(root, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, js);
  }
  return join(outDir, relative(root, resolve(root, source))).replace(/\.ts$/, '.js');
}
