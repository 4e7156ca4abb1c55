import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md's dependency rule, checked on every import of every source file:
 * the engine knows no suite, model, reporter or CLI; reference implementations and generators
 * know neither the CLI nor the reporters; reporters see only the engine's result and event types.
 */
const root = resolve(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  const abs = join(root, dir);
  let names: string[];
  try {
    names = readdirSync(abs);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const p = join(abs, n);
    if (statSync(p).isDirectory()) return files(join(dir, n));
    return n.endsWith('.ts') ? [join(dir, n)] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const spec = m[1] ?? m[2];
    if (spec?.startsWith('.')) out.push(relative(root, resolve(dirname(join(root, file)), spec)));
  }
  return out;
}

function violations(from: string, forbidden: string[], allowed: string[] = []): string[] {
  return files(from).flatMap((f) =>
    imports(f)
      .filter((target) => forbidden.some((p) => target.startsWith(p)) && !allowed.some((a) => target.startsWith(a)))
      .map((target) => `${f} imports ${target}`),
  );
}

describe('dependency rule (ARCHITECTURE.md)', () => {
  it('finds the sources it checks', () => {
    expect(files('src/engine').length).toBeGreaterThan(10);
  });

  it('src/engine imports no suite, reference model, generator, reporter or CLI', () => {
    expect(violations('src/engine', ['suites', 'reference', 'generators', 'src/reporting', 'cli'])).toEqual([]);
  });

  it('reference/ and generators/ import neither the CLI nor the reporters', () => {
    expect([...violations('reference', ['cli', 'src/reporting']), ...violations('generators', ['cli', 'src/reporting'])]).toEqual([]);
  });

  it('reporters consume only engine result and event types', () => {
    expect(violations('src/reporting', ['src/engine', 'cli', 'src/targets', 'suites', 'reference', 'generators'], ['src/engine/model', 'src/engine/events'])).toEqual([]);
  });

  it('suites reach each other only through suites/index.ts (the one registration place)', () => {
    const cross = files('suites').flatMap((f) => {
      const own = f.split('/')[1];
      return imports(f)
        .filter((t) => t.startsWith('suites/') && t.split('/')[1] !== own && !f.startsWith('suites/index'))
        .map((t) => `${f} imports ${t}`);
    });
    expect(cross).toEqual([]);
  });
});
