import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Rules } from '../../../reference/plugin/model/index.js';
import { loadSuite } from '../../../src/engine/loader/suite-loader.js';
import { Registry } from '../../../src/engine/registry.js';
import { fromRoot } from '../../../src/paths.js';
import { suite } from '../../../suites/plugin/index.js';

interface Req { id: string; level: string; excluded?: string }
interface Step { check?: string; with?: Record<string, unknown>; exec?: { stdin?: { encode?: { codec: string } } }; expect?: { decode?: string } }
interface Case { id: string; requirements: string[]; steps?: Step[]; property?: { generate: string; oracle?: string } }

const dir = fromRoot('suites', 'plugin');
const reqText = readFileSync(join(dir, 'requirements.yaml'), 'utf8');
const requirements = parse(reqText) as Req[];
const caseFiles = readdirSync(join(dir, 'cases')).filter((f) => f.endsWith('.yaml')).sort();
// The cases as they run: `each:` rows expanded, suite.yaml defaults applied.
const cases = loadSuite(suite, new Registry([suite]), suite.dir).cases as unknown as Case[];
const ajv = new Ajv({ allErrors: true, strict: false });

describe('plugin suite catalog and cases', () => {
  it('validate against the suite file schemas and start with the schema comment', () => {
    const reqSchema = ajv.compile(JSON.parse(readFileSync(fromRoot('schemas', 'requirements.schema.json'), 'utf8')) as object);
    expect(reqSchema(requirements), JSON.stringify(reqSchema.errors)).toBe(true);
    expect(reqText.split('\n')[0]).toBe('# yaml-language-server: $schema=../../schemas/requirements.schema.json');
    const caseSchema = ajv.compile(JSON.parse(readFileSync(fromRoot('schemas', 'cases.schema.json'), 'utf8')) as object);
    for (const f of caseFiles) {
      const text = readFileSync(join(dir, 'cases', f), 'utf8');
      expect(text.split('\n')[0], f).toBe('# yaml-language-server: $schema=../../../schemas/cases.schema.json');
      expect(caseSchema(parse(text)), `${f}: ${JSON.stringify(caseSchema.errors)}`).toBe(true);
    }
  });

  it('has unique, prefixed requirement and case IDs', () => {
    const ids = requirements.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => id.startsWith('PLUGIN-'))).toBe(true);
    const caseIds = cases.map((c) => c.id);
    expect(new Set(caseIds).size).toBe(caseIds.length);
  });

  it('covers every requirement by a case, or says why not', () => {
    const covered = new Set(cases.flatMap((c) => c.requirements));
    const uncovered = requirements.filter((r) => !r.excluded && !covered.has(r.id)).map((r) => r.id);
    expect(uncovered).toEqual([]);
    const coveredExcluded = requirements.filter((r) => r.excluded && covered.has(r.id)).map((r) => r.id);
    expect(coveredExcluded).toEqual([]);
  });

  it('names only known requirements, checks, codecs, generators and oracles', () => {
    const known = new Set(requirements.map((r) => r.id));
    for (const c of cases) for (const r of c.requirements) expect(known.has(r), `${c.id}: ${r}`).toBe(true);
    for (const pair of Object.values(Rules)) {
      for (const id of Object.values(pair)) expect(known.has(id), String(id)).toBe(true);
    }
    const names = (prefix: string, table: object | undefined): Set<string> => new Set(Object.keys(table ?? {}).map((k) => `${prefix}.${k}`));
    const checks = names('plugin', suite.checks);
    const codecs = names('plugin', suite.codecs);
    const generators = names('plugin', suite.generators);
    const oracles = names('plugin', suite.oracles);
    for (const c of cases) {
      if (c.property) {
        expect(generators.has(c.property.generate), c.property.generate).toBe(true);
        if (c.property.oracle) expect(oracles.has(c.property.oracle), c.property.oracle).toBe(true);
      }
      for (const s of c.steps ?? []) {
        if (s.check) expect(checks.has(s.check), `${c.id}: ${s.check}`).toBe(true);
        const codec = s.exec?.stdin?.encode?.codec;
        if (codec) expect(codecs.has(codec), codec).toBe(true);
        if (s.expect?.decode) expect(codecs.has(s.expect.decode), s.expect.decode).toBe(true);
      }
    }
  });

  it('marks every plugin case with needs: [plugin_command] and every compiler case with needs: [compiler_command]', () => {
    for (const c of cases) {
      const needs = (c as { needs?: string[] }).needs ?? [];
      const side = c.requirements.every((r) => r.startsWith('PLUGIN-COMPILER-')) ? 'compiler_command' : 'plugin_command';
      expect(needs, c.id).toContain(side);
    }
  });
});
