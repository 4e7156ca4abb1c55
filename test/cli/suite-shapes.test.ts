import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepShape, keptShape, shapeStamp } from '../../cli/suite-shapes.js';
import { shapeOfModule, type SuiteShape } from '../../src/engine/loader/suite-shape.js';

const root = mkdtempSync(join(tmpdir(), 'specgate-suite-shapes-'));
// what these throw-away folders keep stays out of the project's cache folder
process.env['SPECGATE_CACHE_DIR'] = join(root, '.cache');
afterAll(() => rmSync(root, { recursive: true, force: true }));

function suiteFolder(name: string): { dir: string; shape: SuiteShape } {
  const dir = join(root, name);
  mkdirSync(join(dir, 'cases', 'more'), { recursive: true });
  mkdirSync(join(dir, 'schemas'));
  for (const f of ['requirements.yaml', 'suite.yaml', 'api.yaml', 'trace.yaml', 'cases/one.yaml', 'cases/more/two.yml']) writeFileSync(join(dir, f), '[]\n');
  writeFileSync(join(dir, 'schemas', 'body.json'), '{}');
  const shape = shapeOfModule({ name, dir, generators: { g: () => undefined as never } }, {}) as SuiteShape;
  return { dir, shape };
}

describe('kept suite shapes (suite-shapes.ts)', () => {
  it('keep the shape while only the files the loader reads change', () => {
    const { dir, shape } = suiteFolder('edited');
    keepShape(shape, shapeStamp(dir));
    for (const f of ['requirements.yaml', 'suite.yaml', 'api.yaml', 'trace.yaml', 'cases/one.yaml', 'cases/more/two.yml', 'cases/three.yaml']) {
      writeFileSync(join(dir, f), '- edited\n');
      expect([f, keptShape('edited', dir)]).toEqual([f, shape]);
    }
    expect(keptShape('edited', join(root, 'elsewhere'))).toBeUndefined();
  });

  it('lose it once any other file of the folder changes, is added or removed', () => {
    const { dir, shape } = suiteFolder('changed');
    for (const change of [
      () => writeFileSync(join(dir, 'schemas', 'body.json'), '{"type":"object"}'),
      () => writeFileSync(join(dir, 'passive.yaml'), '[]'),
      () => writeFileSync(join(dir, 'cases', 'notes.json'), '{}'),
      () => rmSync(join(dir, 'cases', 'notes.json')),
      () => writeFileSync(join(dir, 'schemas', 'suite.yaml'), '[]'),
    ]) {
      keepShape(shape, shapeStamp(dir));
      expect(keptShape('changed', dir)).toEqual(shape);
      change();
      expect(keptShape('changed', dir)).toBeUndefined();
    }
  });

  it('read nothing from a file of the wrong shape or one others may write', () => {
    const { dir, shape } = suiteFolder('planted');
    keepShape(shape, shapeStamp(dir));
    const cache = join(root, '.cache');
    const [name] = readdirSync(cache).filter((f) => f.startsWith('suite-shape-') && readFileSync(join(cache, f), 'utf8').includes('"planted"'));
    const file = join(cache, name as string);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { shape: Record<string, unknown> };
    writeFileSync(file, JSON.stringify({ ...kept, shape: { ...kept.shape, generators: ['g\u001b[2J'] } }));
    expect(keptShape('planted', dir)).toBeUndefined();
    writeFileSync(file, JSON.stringify({ ...kept, shape: { ...kept.shape, name: 'other' } }));
    expect(keptShape('planted', dir)).toBeUndefined();
    writeFileSync(file, JSON.stringify(kept));
    expect(keptShape('planted', dir)).toEqual(shape);
    const mode = statSync(file).mode & 0o777;
    chmodSync(file, 0o666);
    expect(keptShape('planted', dir)).toBeUndefined();
    chmodSync(file, mode);
  });
});
