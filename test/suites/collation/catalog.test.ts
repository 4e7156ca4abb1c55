import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Requirement } from '../../../src/engine/model.js';
import { fromRoot } from '../../../src/paths.js';
import { loadCatalogCopy } from '../../helpers/catalog-copy.js';
import { specOutline, specPlace } from '../../helpers/spec-outline.js';

/** The spec document of part F, in the shared folder beside this repository. */
const SPEC_FILE = '001_5e21481c28ca383d.txt';
const SPEC = fromRoot('..', 'shared', 'specs', SPEC_FILE);
const SUITE_DIR = fromRoot('suites', 'collation');

/** The suite's judged requirement IDs and levels, in catalog order. */
const JUDGED: [string, string][] = [
  ['COLL-DOC-LOCALE-REQUIRED', 'MUST'], ['COLL-DOC-FIELD-TYPES', 'MUST'], ['COLL-DOC-UNKNOWN-FIELD', 'STRICTER'],
  ['COLL-DOC-STRENGTH-VALUES', 'STRICTER'], ['COLL-DOC-CASEFIRST-VALUES', 'STRICTER'], ['COLL-DOC-ALTERNATE-VALUES', 'STRICTER'],
  ['COLL-DOC-MAXVARIABLE-VALUES', 'STRICTER'], ['COLL-DOC-DEFAULTS', 'STRICTER'], ['COLL-DOC-ECHO', 'STRICTER'],
  ['COLL-DOC-SIMPLE-STORED', 'STRICTER'],
  ['COLL-LOCALE-SIMPLE', 'MUST'], ['COLL-LOCALE-RULES', 'MUST'], ['COLL-LOCALE-VARIANT', 'MUST'],
  ['COLL-LOCALE-UNKNOWN', 'STRICTER'], ['COLL-LOCALE-DEFAULTS-VARY', 'STRICTER'],
  ['COLL-STRENGTH-1', 'MUST'], ['COLL-STRENGTH-2', 'MUST'], ['COLL-STRENGTH-3', 'MUST'], ['COLL-STRENGTH-4', 'SHOULD'],
  ['COLL-STRENGTH-5', 'SHOULD'],
  ['COLL-CASE-LEVEL-1', 'MUST'], ['COLL-CASE-LEVEL-2', 'MUST'], ['COLL-CASE-FIRST-UPPER', 'MUST'], ['COLL-CASE-FIRST-LOWER', 'MUST'],
  ['COLL-NUMERIC-ORDER', 'MUST'], ['COLL-NUMERIC-OFF', 'MUST'], ['COLL-NUMERIC-NO-SIGN', 'MUST'],
  ['COLL-NUMERIC-NO-DECIMAL', 'MUST'], ['COLL-NUMERIC-NO-EXPONENT', 'MUST'], ['COLL-NUMERIC-ND', 'MUST'],
  ['COLL-NUMERIC-ONLY-ND', 'MUST'], ['COLL-NUMERIC-RUN-LIMIT', 'MUST'],
  ['COLL-ALT-SHIFTED', 'MUST'], ['COLL-ALT-NON-IGNORABLE', 'MUST'], ['COLL-ALT-MAXVAR-SPACE', 'MUST'],
  ['COLL-ALT-MAXVAR-PUNCT', 'MUST'], ['COLL-ALT-MAXVAR-UNSHIFTED', 'MUST'],
  ['COLL-BACKWARDS-SECONDARY', 'MUST'], ['COLL-NORM-ON', 'MUST'],
  ['COLL-OP-OPTION', 'MUST'], ['COLL-OP-COLLECTION-DEFAULT', 'MUST'], ['COLL-OP-COLLECTION-NONE', 'SHOULD'],
  ['COLL-OP-ONE-COLLATION', 'MUST'], ['COLL-OP-NO-PER-FIELD', 'MUST'],
  ['COLL-BULK-UPDATE', 'MUST'], ['COLL-BULK-REPLACE', 'MUST'], ['COLL-BULK-DELETE', 'MUST'], ['COLL-BULK-PER-STATEMENT', 'MUST'],
  ['COLL-VIEW-DEFAULT', 'MUST'], ['COLL-VIEW-SIMPLE-BY-DEFAULT', 'MUST'], ['COLL-VIEW-NOT-INHERITED', 'MUST'],
  ['COLL-VIEW-OVERRIDE-FAILS', 'MUST'], ['COLL-VIEW-CHANGE-FAILS', 'MUST'], ['COLL-VIEW-ON-VIEW-DIFFERENT', 'MUST'],
  ['COLL-VIEW-ON-VIEW-SAME', 'MUST'], ['COLL-VIEW-MULTI-DIFFERENT', 'MUST'], ['COLL-VIEW-MULTI-SAME', 'MUST'],
  ['COLL-INDEX-OWN-COLLATION', 'MUST'], ['COLL-INDEX-INHERITS-DEFAULT', 'SHOULD'], ['COLL-INDEX-SAME-USED', 'SHOULD'],
  ['COLL-INDEX-DIFFERENT-NOT-USED', 'MUST'], ['COLL-INDEX-SIMPLE-NOT-USED', 'MUST'], ['COLL-INDEX-COMPOUND-PREFIX', 'MAY'],
  ['COLL-INDEX-COMPOUND-ONLY-PREFIX', 'MUST'], ['COLL-INDEX-SPECIAL-NEEDS-SIMPLE', 'MUST'], ['COLL-INDEX-SPECIAL-SIMPLE-OK', 'MUST'],
  ['COLL-KEY-BINARY', 'MUST'], ['COLL-KEY-EMBEDDED-BINARY', 'MUST'],
];
const EXCLUDED = ['COLL-DOC-NINTH-FLAG-NAME', 'COLL-OP-COMMAND-NAMES', 'COLL-INDEX-KEY-SIZE', 'COLL-AUTH-NONE', 'COLL-STATES-NONE', 'COLL-VERSIONING'];

/** The areas an ID may name: `COLL-<AREA>-<RULE>`. */
const AREAS = ['DOC', 'LOCALE', 'STRENGTH', 'CASE', 'NUMERIC', 'ALT', 'BACKWARDS', 'NORM', 'OP', 'BULK', 'VIEW', 'INDEX', 'KEY', 'AUTH', 'STATES', 'VERSIONING'];

/**
 * The entries whose values or meanings part F leaves "not shown" or hands to ICU: each says the
 * value is ICU's (or CLDR's locale data) and cites where ICU or Unicode documents it.
 */
const ICU_RESTING = [
  'COLL-DOC-STRENGTH-VALUES', 'COLL-DOC-CASEFIRST-VALUES', 'COLL-DOC-ALTERNATE-VALUES', 'COLL-DOC-MAXVARIABLE-VALUES',
  'COLL-DOC-DEFAULTS', 'COLL-LOCALE-DEFAULTS-VARY', 'COLL-STRENGTH-2', 'COLL-STRENGTH-3', 'COLL-STRENGTH-4', 'COLL-STRENGTH-5',
  'COLL-CASE-FIRST-UPPER', 'COLL-CASE-FIRST-LOWER', 'COLL-ALT-NON-IGNORABLE', 'COLL-ALT-MAXVAR-SPACE', 'COLL-ALT-MAXVAR-PUNCT',
];

/** The references the catalog may cite, with the parts of each it may name. */
const ICU_PAGES: Record<string, ReadonlySet<string>> = {
  'Collation Concepts': new Set(['Comparison Levels', 'Backward Secondary Sorting', 'Normalization', 'Ignoring Punctuation', 'Case Ordering']),
  'Collation Customization': new Set(),
};
const UTS35_SETTINGS = new Set(['strength', 'alternate', 'backwards', 'normalization', 'caseLevel', 'caseFirst', 'maxVariable', 'numeric']);
const UTS10_SECTIONS = new Set(['Multi-Level Comparison', 'Variable Weighting']);

/** The places the text cites, and the citations that name something not in the lists above. */
function citations(text: string): { count: number; unknown: string[] } {
  const unknown: string[] = [];
  let count = 0;
  const parts = (list: string | undefined): string[] => (list ? list.split(',').map((s) => s.trim()) : []);
  for (const m of text.matchAll(/ICU user guide, (Collation \w+)(?:: ([^;)]+))?/g)) {
    count++;
    const known = ICU_PAGES[m[1] ?? ''];
    if (!known) unknown.push(m[0]);
    else for (const p of parts(m[2])) if (!known.has(p)) unknown.push(`${m[1] ?? ''}: ${p}`);
  }
  for (const m of text.matchAll(/UTS #35 Part 5, Setting Options(?:: ([^;)]+))?/g)) {
    count++;
    for (const p of parts(m[1])) if (!UTS35_SETTINGS.has(p)) unknown.push(`UTS #35 Part 5 setting ${p}`);
  }
  for (const m of text.matchAll(/UTS #10, ([^;)]+)/g)) {
    count++;
    for (const p of parts(m[1])) if (!UTS10_SECTIONS.has(p)) unknown.push(`UTS #10 ${p}`);
  }
  // a reference named in any other form is a citation this check cannot read
  const named = (text.match(/ICU user guide|UTS #\d+/g) ?? []).length;
  if (named !== count) unknown.push(`${named - count} citation(s) in an unreadable form`);
  return { count, unknown };
}

/** The words an entry quotes from the spec: double-quoted passages, split at "...", code examples left out. */
function quotations(text: string): string[] {
  // odd pieces between backticks are code: one holding a quote is an example, not a quotation
  const plain = text.split('`').map((piece, i) => (i % 2 === 1 && piece.includes('"') ? ' ' : piece)).join('');
  return [...plain.matchAll(/"([^"]+)"/g)].flatMap((m) => (m[1] ?? '').split('...')).map((s) => s.trim()).filter((s) => s.length >= 8);
}

describe('collation requirement catalog', () => {
  // the catalog alone (cases are judged by their own tests)
  const { suite, remove } = loadCatalogCopy('collation', ['requirements.yaml']);
  afterAll(remove);
  const reqs: Requirement[] = suite.requirements;
  const byId = new Map(reqs.map((r) => [r.id, r]));

  it('holds exactly the suite design\'s IDs and levels, judged ones first, then the excluded', () => {
    expect(reqs.filter((r) => !r.excluded).map((r) => `${r.id} ${r.level}`)).toEqual(JUDGED.map(([id, level]) => `${id} ${level}`));
    expect(reqs.filter((r) => r.excluded).map((r) => r.id)).toEqual(EXCLUDED);
    expect(reqs.map((r) => r.id)).toEqual(JUDGED.map(([id]) => id).concat(EXCLUDED));
  });

  it('gives every entry a unique, well-formed ID in one of the areas, and no side', () => {
    expect(new Set(reqs.map((r) => r.id)).size).toBe(reqs.length);
    for (const r of reqs) {
      const m = /^COLL-([A-Z]+)-[A-Z0-9]+(?:-[A-Z0-9]+)*$|^COLL-([A-Z]+)$/.exec(r.id);
      expect(m, r.id).not.toBeNull();
      expect(AREAS, r.id).toContain(m?.[1] ?? m?.[2]);
      expect(['MUST', 'SHOULD', 'MAY', 'STRICTER'], r.id).toContain(r.level);
      expect(r.side, r.id).toBeUndefined();
    }
  });

  it('gives each excluded statement a reason that stays visible in reports', () => {
    for (const id of EXCLUDED) expect(byId.get(id)?.excluded?.length ?? 0, id).toBeGreaterThan(40);
  });

  it('says in the text why a SHOULD or MAY is not a MUST', () => {
    for (const r of reqs.filter((x) => x.level !== 'MUST')) expect(r.text, r.id).toContain(`${r.level}:`);
  });

  it('never makes MUST a rule that rests on a value part F calls "not shown"', () => {
    const resting = reqs.filter((r) => !r.excluded && /not shown|not a value the document shows/.test(r.text));
    expect(resting.map((r) => r.id)).toEqual(expect.arrayContaining(['COLL-LOCALE-DEFAULTS-VARY', 'COLL-STRENGTH-4', 'COLL-STRENGTH-5', 'COLL-DOC-STRENGTH-VALUES']));
    expect(resting.filter((r) => r.level === 'MUST').map((r) => r.id)).toEqual([]);
  });

  it('starts with its schema comment and keeps the excluded statements in their own closing section', () => {
    const text = readFileSync(join(SUITE_DIR, 'requirements.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../../schemas/requirements.schema.json');
    const closing = text.indexOf('# ================================================================ not judged from outside');
    expect(closing).toBeGreaterThan(0);
    expect(text.slice(0, closing)).not.toMatch(/^ {2}excluded:/m);
    expect(text.slice(closing).match(/^- id: /gm)?.length).toBe(EXCLUDED.length);
  });

  it('says which values are ICU\'s and cites where ICU or Unicode documents them', () => {
    for (const id of ICU_RESTING) {
      const text = byId.get(id)?.text ?? '';
      expect(text, id).toMatch(/\b(?:ICU|CLDR)'s\b/);
      expect(citations(text).count, `${id} cites nothing`).toBeGreaterThan(0);
    }
    for (const r of reqs) expect(citations(`${r.text} ${r.excluded ?? ''}`).unknown, r.id).toEqual([]);
  });

  it('names the ninth flag `normalization` and says the name is the harness\'s', () => {
    expect(byId.get('COLL-NORM-ON')?.text).toContain("`normalization` by the harness's convention");
    expect(byId.get('COLL-DOC-NINTH-FLAG-NAME')?.excluded).toMatch(/`normalization`.*convention/);
    const readme = readFileSync(join(SUITE_DIR, 'README.md'), 'utf8');
    expect(readme).toContain('`normalization`');
  });

  it.skipIf(!existsSync(SPEC))('gives every entry a part F place the spec document has', () => {
    const spec = specOutline(readFileSync(SPEC, 'utf8'));
    for (const r of reqs) {
      // a rule numbered directly under "## X" (Errors, Limits, Versioning), else part F's "###"
      const { file, place, depth, h2, h3, item, numberedHere } = specPlace(r.source);
      expect(file, r.id).toBe(SPEC_FILE);
      const section = spec.get(h2);
      expect(section, `${r.id}: no "## ${h2}"`).toBeDefined();
      expect(depth, `${r.id}: ${place}`).toBeLessThanOrEqual(numberedHere ? 2 : 3);
      const lines = section?.get(h3) ?? [];
      expect(section?.has(h3), `${r.id}: no "### ${h3}" under "## ${h2}"`).toBe(true);
      if (h3 !== '') expect(h3, `${r.id}: not a part F section`).toMatch(/^F\. |^E and F$/);
      if (item === undefined) {
        if (h3 === '') expect(lines.join('\n'), `${r.id}: "## ${h2}" says nothing of collation`).toMatch(/collation|numericOrdering/i);
        continue;
      }
      const at = lines.findIndex((l) => l.startsWith(`${item}. `));
      expect(at, `${r.id}: no rule ${item} in ${place}`).toBeGreaterThanOrEqual(0);
      // directly under "## X" the rule is part F's when it speaks of collation or follows "Collation and indexes:"
      if (h3 === '') {
        const partF = /collation/i.test(lines[at] ?? '') || lines.slice(0, at).some((l) => l.startsWith('Collation and indexes:'));
        expect(partF, `${r.id}: rule ${item} of "## ${h2}" is not part F's`).toBe(true);
      }
    }
  });

  it.skipIf(!existsSync(SPEC))('quotes the spec document word for word', () => {
    const spec = readFileSync(SPEC, 'utf8').replace(/`/g, '').replace(/\s+/g, ' ');
    for (const r of reqs) for (const q of quotations(r.text)) expect(spec.includes(q.replace(/\s+/g, ' ')), `${r.id}: "${q}"`).toBe(true);
  });
});
