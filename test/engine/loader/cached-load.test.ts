import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSuite } from '../../../src/engine/loader/suite-loader.js';
import { Registry } from '../../../src/engine/registry.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { SpecgateErrorList } from '../../../src/errors.js';

// counts the full parses with positions (the cost a cached file is meant to save)
const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/engine/loader/yaml-source.js', async (original) => {
  const real = await original<typeof import('../../../src/engine/loader/yaml-source.js')>();
  return {
    ...real,
    parseYaml: (...args: Parameters<typeof real.parseYaml>) => {
      parses.count++;
      return real.parseYaml(...args);
    },
  };
});

const root = mkdtempSync(join(tmpdir(), 'specgate-cached-load-'));
// keep the parse cache of these throw-away files out of the project's cache folder
beforeAll(() => {
  process.env['SPECGATE_CACHE_DIR'] = join(root, '.cache');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const REQUIREMENTS = `- id: SRV-ONE
  level: MUST
  source: t.txt#One
  text: the server's rule
  side: server
- id: CLI-ONE
  level: MUST
  source: t.txt#Two
  text: the client's rule
  side: client
`;

const SUITE = 'sides:\n  server: { description: the server }\n  client: { description: the client }\n';

function caseText(id: string, requirements: string): string {
  return `- id: ${id}\n  requirements: [${requirements}]\n  steps:\n    - request: { url: "\${base}/${id}" }\n      expect: { status: 200 }\n`;
}

function suiteWith(name: string, cases: string): SuiteModule {
  const dir = join(root, name);
  mkdirSync(join(dir, 'cases'), { recursive: true });
  writeFileSync(join(dir, 'requirements.yaml'), REQUIREMENTS);
  writeFileSync(join(dir, 'suite.yaml'), SUITE);
  writeFileSync(join(dir, 'cases', 'all.yaml'), cases);
  return { name: 't', dir };
}

describe('loading a suite again from the parse cache', () => {
  it('parses none of its files when no case has a problem to place', () => {
    const m = suiteWith('clean', caseText('server-case', 'SRV-ONE') + caseText('client-case', 'CLI-ONE'));
    const first = loadSuite(m, new Registry([m]), m.dir);
    expect(parses.count).toBeGreaterThan(0);
    parses.count = 0;
    const again = loadSuite(m, new Registry([m]), m.dir);
    expect(parses.count).toBe(0);
    expect(again.cases).toEqual(first.cases);
  });

  it('still places a case that mixes sides, parsing the cached file to find where', () => {
    const m = suiteWith('mixed', caseText('server-case', 'SRV-ONE') + caseText('both-sides', 'SRV-ONE, CLI-ONE'));
    const failure = (): string[] => {
      try {
        loadSuite(m, new Registry([m]), m.dir);
      } catch (e) {
        if (e instanceof SpecgateErrorList) return e.errors.map((x) => x.message);
        throw e;
      }
      return [];
    };
    const first = failure();
    expect(first.join('\n')).toMatch(/cases\/all\.yaml:\d+:\d+: case "both-sides" covers requirements of 2 sides/);
    expect(failure()).toEqual(first);
  });
});
