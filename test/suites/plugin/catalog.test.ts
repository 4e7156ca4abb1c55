import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Rules } from '../../../reference/plugin/model/index.js';
import { loadSuite } from '../../../src/engine/loader/suite-loader.js';
import { Registry } from '../../../src/engine/registry.js';
import { fromRoot } from '../../../src/paths.js';
import { suite } from '../../../suites/plugin/index.js';
import { specOutline } from '../../helpers/spec-outline.js';

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

/** Spec A lives in this document, beside the repository (../shared/specs). */
const SPEC_FILE = '000_c02aea68bb3be747.txt';
const SPEC = fromRoot('..', 'shared', 'specs', SPEC_FILE);

/** The numbers of the numbered items ("1. ...") in `lines`. */
function numbered(lines: readonly string[]): Set<string> {
  return new Set(lines.flatMap((l) => /^(\d+)\. /.exec(l)?.[1] ?? []));
}

/**
 * The places of part A a `source:` may name, each with the numbers of its numbered items: the
 * sections that have a part A ("## What the service does" and its "### A. ...", "Endpoints",
 * "Errors", "Versioning", whose numbered items serve every part), the messages of "Resources and
 * their fields / A. Plugin messages" (`Version`, `CodeGeneratorRequest`, ..., the enum), and
 * "Rules for File" with its numbered rules.
 */
function partAPlaces(text: string): Map<string, Set<string>> {
  const doc = specOutline(text);
  const places = new Map<string, Set<string>>();
  for (const [h2, sections] of doc) {
    const a = [...sections.keys()].find((k) => k.startsWith('A. '));
    if (a !== undefined) places.set(h2, numbered(sections.get(a) ?? []));
    else if (h2 === 'Versioning') places.set(h2, numbered(sections.get('') ?? []));
  }
  const messages = doc.get('Resources and their fields')?.get('A. Plugin messages') ?? [];
  const rules = messages.findIndex((l) => l.startsWith('Rules for `File`'));
  for (const l of messages.slice(0, rules < 0 ? undefined : rules)) {
    const m = /^(?:Enum )?`([\w.]+)`/.exec(l);
    if (m?.[1]) places.set(m[1], new Set());
  }
  if (rules >= 0) places.set('Rules for File', numbered(messages.slice(rules)));
  return places;
}

/** A `source:` place, `Rules for File, rules 3 and 6` or `Version, Versioning 1`, as names with the item numbers cited. */
function cited(place: string): { name: string; items: string[] }[] {
  const out: { name: string; items: string[] }[] = [];
  for (const piece of place.split(', ')) {
    const m = /^(.*?)\s*(?:rules?\s+)?(\d+(?:\s+and\s+\d+)*)$/.exec(piece);
    const name = m ? m[1] || out[out.length - 1]?.name || '' : piece;
    out.push({ name, items: m?.[2]?.split(/\s+and\s+/) ?? [] });
  }
  return out;
}

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

  it.skipIf(!existsSync(SPEC))('cites for every requirement a place of part A the spec has, and items it numbers', () => {
    const places = partAPlaces(readFileSync(SPEC, 'utf8'));
    expect([...places.keys()]).toEqual(expect.arrayContaining(['What the service does', 'Endpoints', 'Errors', 'Versioning', 'CodeGeneratorRequest', 'CodeGeneratorResponse.File', 'Rules for File']));
    for (const r of requirements as (Req & { source: string })[]) {
      const [file, place = ''] = r.source.split('#');
      expect(file, r.id).toBe(SPEC_FILE);
      expect(place.startsWith('A/'), `${r.id}: ${place}`).toBe(true);
      for (const { name, items } of cited(place.slice(2))) {
        expect(places.has(name), `${r.id}: no place "${name}" in part A`).toBe(true);
        for (const n of items) expect(places.get(name)?.has(n), `${r.id}: ${name} has no item ${n}`).toBe(true);
      }
    }
  });

  it.skipIf(!existsSync(SPEC))('quotes the spec word for word in CHANGELOG.md, and every entry quotes it', () => {
    const spec = readFileSync(SPEC, 'utf8');
    const log = readFileSync(join(dir, 'CHANGELOG.md'), 'utf8');
    const quotes = log.split('\n').filter((l) => l.startsWith('> ')).map((l) => l.slice(2));
    expect(quotes.length).toBeGreaterThan(20);
    for (const q of quotes) expect(spec.includes(q), `not in the spec, word for word: ${q}`).toBe(true);
    // each change (a "### " entry) rests on at least one quoted passage
    for (const entry of log.split(/^### /m).slice(1)) expect(entry, entry.split('\n')[0]).toMatch(/^> /m);
  });

  it('marks every plugin case with needs: [plugin_command] and every compiler case with needs: [compiler_command]', () => {
    for (const c of cases) {
      const needs = (c as { needs?: string[] }).needs ?? [];
      const side = c.requirements.every((r) => r.startsWith('PLUGIN-COMPILER-')) ? 'compiler_command' : 'plugin_command';
      expect(needs, c.id).toContain(side);
    }
  });
});
