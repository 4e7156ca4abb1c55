import { createHash } from 'node:crypto';
import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromRoot } from '../../paths.js';

/**
 * Stamps of what a result derived from a suite was derived from, cheap enough to check on every
 * start: a file's path, size, modification and change times, mode and inode (the change time
 * moves on every write and cannot be set back, so an edit that keeps the size and restores the
 * modification time is still seen), never its content. A stamp differs when a file is added, removed, renamed or written; a
 * result kept under one (list-cache.ts) is used only while the stamp is the same.
 */

/**
 * One line per file under `roots` (at any depth, in name order) that `keep` takes; a missing root
 * adds a line of its own. A symbolic link to a folder is walked into, as the suite loader reads
 * through it (suite-loader.ts yamlFilesUnder); a folder reached again (a link back up, or a second
 * link to the same place) adds a line naming it instead, so that a cycle ends.
 */
function fileLines(roots: readonly string[], keep: (name: string, path: string) => boolean, out: string[]): void {
  const seen = new Set<string>();
  const walk = (d: string): void => {
    let real;
    try {
      real = realpathSync(d);
    } catch {
      out.push(`${d}\0missing`);
      return;
    }
    if (seen.has(real)) {
      out.push(`${d}\0again\0${real}`);
      return;
    }
    seen.add(real);
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      out.push(`${d}\0missing`);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        walk(p);
        continue;
      }
      // a symbolic link is followed: what counts is the folder or file read
      let st;
      try {
        st = statSync(p, { throwIfNoEntry: false });
      } catch {
        st = undefined; // a link that loops on itself
      }
      if (st?.isDirectory()) walk(p);
      // the change time too: a write that keeps the size and sets the modification time back, or a
      // change of mode, still changes it (no user can set it)
      else if (keep(e.name, p)) out.push(st ? `${p}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}\0${st.mode}\0${st.ino}` : `${p}\0missing`);
    }
  };
  for (const r of roots) walk(r);
}

/** A fingerprint of every file under `roots` that `keep` takes, by its name and path (see the top of this file). */
export function filesStamp(roots: readonly string[], keep: (name: string, path: string) => boolean = () => true): string {
  const lines: string[] = [];
  fileLines(roots, keep, lines);
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** The folders of specgate's own code, under the root it runs from (`dist/` or the sources). */
const CODE_FOLDERS = ['src', 'cli', 'suites', 'reference', 'generators'];

let code: string | undefined;

/**
 * npm's record of the installed packages that specgate's imports resolve to: the nearest
 * `node_modules/.package-lock.json` upward from `root` (its own in a checkout; the project's when
 * specgate is itself installed under a project's `node_modules`), or undefined when there is none.
 */
export function packageLock(root: string): Stats | undefined {
  for (let dir = root; ; ) {
    let st;
    try {
      st = statSync(join(dir, 'node_modules', '.package-lock.json'), { throwIfNoEntry: false });
    } catch {
      st = undefined; // a folder this user may not read
    }
    if (st?.isFile()) return st;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * A fingerprint of the code this process runs and of what it reads besides a suite's folder
 * (specgate's schemas, the installed packages): what loading a suite does with its files. Run
 * from a build with tsc's record of it (`dist/.tsbuildinfo`, tsconfig.json), that record stands
 * for the code, since tsc rewrites it whenever it writes any output; otherwise (an installed
 * package, or the sources under vitest) every code file counts.
 */
export function codeStamp(): string {
  if (code !== undefined) return code;
  // this file is <code root>/src/engine/loader/input-stamp.{js,ts}
  const here = fileURLToPath(import.meta.url);
  const root = dirname(dirname(dirname(dirname(here))));
  const ext = here.endsWith('.ts') ? '.ts' : '.js';
  const lines: string[] = [];
  const record = basename(root) === 'dist' ? statSync(join(root, '.tsbuildinfo'), { throwIfNoEntry: false }) : undefined;
  if (record) lines.push(`build\0${record.size}\0${record.mtimeMs}\0${record.ctimeMs}\0${record.ino}`);
  else fileLines(CODE_FOLDERS.map((f) => join(root, f)), (n) => n.endsWith(ext), lines);
  fileLines([fromRoot('schemas')], () => true, lines);
  const packages = packageLock(fromRoot());
  lines.push(`packages\0${packages ? `${packages.size}\0${packages.mtimeMs}\0${packages.ctimeMs}` : 'none'}`);
  // another Node.js words its parse errors otherwise
  lines.push(`node\0${process.version}`);
  return (code = createHash('sha256').update(`${root}\n${lines.join('\n')}`).digest('hex'));
}
