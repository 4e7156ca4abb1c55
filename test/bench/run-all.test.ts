/**
 * bench/run-all.ts names every benchmark `npm run bench` runs; the README's benchmark section
 * and docs/performance.md state them too (the goals, and a section per benchmark), so this keeps
 * the three lists equal.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';

const text = (file: string): string => readFileSync(fromRoot(file), 'utf8');

/** The names of run-all.ts's BENCHES list, read from its source (importing it runs the benchmarks). */
function benches(): string[] {
  const list = /const BENCHES = \[([^\]]*)\]/.exec(text('bench/run-all.ts'))?.[1];
  return [...(list ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1] as string);
}

describe('the benchmarks npm run bench runs', () => {
  it('are read from run-all.ts, each a file of bench/', () => {
    expect(benches()).toContain('cli-start');
    expect(benches()).toContain('scale');
    for (const name of benches()) expect(existsSync(fromRoot('bench', `${name}.ts`)), name).toBe(true);
  });

  it('each has a row and a section in docs/performance.md, and no other benchmark has one', () => {
    const doc = text('docs/performance.md');
    const rows = [...doc.matchAll(/^\| \[`([^`]+)`\]\(#[^)]+\) \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual([...benches()].sort());
    for (const name of benches()) expect(doc, name).toContain(`\n## \`${name}\`\n`);
  });

  it('each has its goal in the README benchmark section', () => {
    const readme = text('README.md');
    const section = readme.slice(readme.indexOf('## Benchmarks'), readme.indexOf('\n## ', readme.indexOf('## Benchmarks') + 1));
    for (const name of benches()) expect(section, name).toContain(`\`${name}\``);
  });
});
