import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Tree } from './model/apply.js';
import { diskPath } from './model/file-name.js';

/**
 * Writes a model tree under `dir`. Names were validated by the model (spec A, Rules for File,
 * rule 1), so every path stays inside `dir`.
 */
export function writeTree(dir: string, tree: Tree): void {
  for (const [name, content] of tree) {
    const path = join(dir, diskPath(name));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

/** Every regular file under `dir`, as `/`-separated relative path -> UTF-8 content. */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(d);
    } catch {
      return;
    }
    for (const e of entries.sort()) {
      const p = join(d, e);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.set(relative(dir, p).split(sep).join('/'), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

/** A model tree as it lands on disk: keys with empty components collapsed, sorted. */
export function onDisk(tree: Tree): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, content] of [...tree].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.set(diskPath(name), content);
  return out;
}

/** Plain object view of a tree, for reports and deep equality. */
export function treeObject(tree: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries([...tree].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
