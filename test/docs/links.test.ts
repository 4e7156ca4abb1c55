/**
 * The documentation names only what exists: every relative link (and its #anchor, when it names
 * a heading of a markdown file) resolves, and every `specgate <command> ... --option` written in
 * code is an option that command's `--help` lists. Needs `npm run build` (the options come from
 * the built CLI); no network, no suite runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { anchors, commandUses, helpOptions, relativeLinks } from './markdown.js';

const ROOT = fromRoot();
const GLOBAL_OPTIONS = ['--help', '--version'];

/** README.md, ARCHITECTURE.md, CONTRIBUTING.md, docs/**\/*.md, suites/*\/README.md and FINDINGS.md. */
function docFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []));
  const suites = readdirSync(fromRoot('suites'), { withFileTypes: true }).filter((e) => e.isDirectory());
  return [
    ...['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md'].map((f) => fromRoot(f)),
    ...walk(fromRoot('docs')),
    ...suites.flatMap((s) => ['README.md', 'FINDINGS.md'].map((f) => fromRoot('suites', s.name, f))),
  ].filter((f) => existsSync(f));
}

/** What is wrong with one link of `file`, or undefined when it resolves. */
function brokenLink(file: string, target: string): string | undefined {
  const [path = '', anchor] = target.split('#');
  const to = path === '' ? file : path.startsWith('/') ? join(ROOT, decodeURI(path)) : resolve(dirname(file), decodeURI(path));
  if (!existsSync(to)) return `no file ${relative(ROOT, to)}`;
  if (anchor === undefined || anchor === '' || !to.endsWith('.md')) return undefined;
  return anchors(readFileSync(to, 'utf8')).has(decodeURIComponent(anchor)) ? undefined : `no heading #${anchor} in ${relative(ROOT, to)}`;
}

const helps = new Map<string, Set<string>>();
/** The options of `specgate <command>` (with a suite module loaded, its target flags too), from its --help. */
function optionsOf(command: string, suiteModule: string | undefined): Set<string> {
  const key = `${command} ${suiteModule ?? ''}`;
  let options = helps.get(key);
  if (!options) {
    if (!existsSync(fromRoot('dist/cli/main.js'))) throw new Error('dist/cli/main.js is missing: run `npm run build` first (the documented options are read from the built CLI)');
    const module = suiteModule && existsSync(fromRoot(suiteModule)) ? ['--suite-module', suiteModule] : [];
    const help = execFileSync(process.execPath, [fromRoot('bin/specgate.js'), command, ...module, '--help'], { cwd: ROOT, encoding: 'utf8' });
    options = new Set([...helpOptions(help), ...GLOBAL_OPTIONS]);
    helps.set(key, options);
  }
  return options;
}

describe.each(docFiles().map((f) => relative(ROOT, f)))('%s', (file) => {
  const text = readFileSync(join(ROOT, file), 'utf8');

  it('has relative links that resolve, anchors included', () => {
    const broken = relativeLinks(text).flatMap(({ target, line }) => {
      const why = brokenLink(join(ROOT, file), target);
      return why ? [`${file}:${line}: (${target}) ${why}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('names only options its specgate commands have', () => {
    const unknown = commandUses(text).flatMap((use) => {
      const known = optionsOf(use.command, use.suiteModule);
      return use.options.filter((o) => !known.has(o)).map((o) => `${o} in \`${use.text}\``);
    });
    expect(unknown).toEqual([]);
  });
});
