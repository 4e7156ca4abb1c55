import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Requirement } from '../../../src/engine/model.js';
import { fromRoot } from '../../../src/paths.js';
import { loadCatalogCopy, type CatalogCopy } from '../../helpers/catalog-copy.js';
import { specOutline, specPlace } from '../../helpers/spec-outline.js';

/** The spec document of part C, in the shared folder beside this repository. */
const SPEC_FILE = '000_c02aea68bb3be747.txt';
const SPEC = fromRoot('..', 'shared', 'specs', SPEC_FILE);
const SUITE_DIR = fromRoot('suites', 'ctx-auth');

/** The suite's requirement IDs and levels, in catalog order: server side, client side, then the excluded. */
const SERVER: [string, string][] = [
  ['CTX-SRV-BASE-URL-ROOT', 'MUST'], ['CTX-SRV-METADATA', 'SHOULD'], ['CTX-SRV-METADATA-SHAPE', 'SHOULD'],
  ['CTX-SRV-METADATA-ISSUER', 'SHOULD'], ['CTX-SRV-METADATA-S256', 'SHOULD'], ['CTX-SRV-FALLBACK-ENDPOINTS', 'MUST'],
  ['CTX-SRV-FALLBACK-REFRESH', 'MUST'],
  ['CTX-SRV-PKCE-REQUIRED', 'MUST'], ['CTX-SRV-PKCE-S256', 'MUST'], ['CTX-SRV-PKCE-VERIFIER', 'MUST'],
  ['CTX-SRV-PKCE-PLAIN', 'SHOULD'], ['CTX-SRV-STATE-ECHO', 'MUST'], ['CTX-SRV-REDIRECT-VALIDATED', 'MUST'],
  ['CTX-SRV-REDIRECT-SCHEME', 'MUST'], ['CTX-SRV-AUTHZ-MALFORMED-400', 'MUST'], ['CTX-SRV-AUTHZ-ERROR-REDIRECT', 'MUST'],
  ['CTX-SRV-TOKEN-RESPONSE', 'MUST'], ['CTX-SRV-TOKEN-NO-STORE', 'MUST'], ['CTX-SRV-TOKEN-ERROR-SHAPE', 'MUST'],
  ['CTX-SRV-CODE-SINGLE-USE', 'MUST'], ['CTX-SRV-CODE-CLIENT-BOUND', 'MUST'], ['CTX-SRV-CONFIDENTIAL-CLIENT', 'MUST'], ['CTX-SRV-DCR', 'SHOULD'],
  ['CTX-SRV-DCR-VALID', 'SHOULD'], ['CTX-SRV-DCR-INVALID', 'SHOULD'], ['CTX-SRV-NO-DCR-CLIENT', 'MUST'],
  ['CTX-SRV-401-MISSING', 'MUST'], ['CTX-SRV-401-INVALID', 'MUST'], ['CTX-SRV-401-EXPIRED', 'MUST'],
  ['CTX-SRV-WWW-AUTHENTICATE', 'MUST'], ['CTX-SRV-403-SCOPE', 'MUST'], ['CTX-SRV-BEARER-ACCEPTED', 'MUST'],
  ['CTX-SRV-SESSION-EACH-REQUEST', 'MUST'], ['CTX-SRV-TOKEN-NOT-IN-QUERY', 'MUST'], ['CTX-SRV-EXPIRES-IN', 'SHOULD'],
  ['CTX-SRV-REFRESH', 'SHOULD'], ['CTX-SRV-REFRESH-ROTATION', 'SHOULD'], ['CTX-SRV-CLIENT-CREDENTIALS', 'SHOULD'],
  ['CTX-SRV-HTTPS', 'MUST'],
  ['CTX-SRV-DELEGATION-REDIRECT', 'MUST'], ['CTX-SRV-DELEGATION-EXCHANGE', 'MUST'], ['CTX-SRV-DELEGATION-OWN-TOKEN', 'MUST'],
  ['CTX-SRV-DELEGATION-STATUS', 'MUST'], ['CTX-SRV-DELEGATION-MAPPING', 'MUST'], ['CTX-SRV-DELEGATION-EXPIRY', 'MUST'],
  ['CTX-SRV-DELEGATION-REDIRECT-URIS', 'MUST'], ['CTX-SRV-DELEGATION-FAILURE', 'MUST'],
];
const CLIENT: [string, string][] = [
  ['CTX-CLI-BASE-URL-ROOT', 'MUST'], ['CTX-CLI-DISCOVERY-FIRST', 'MUST'], ['CTX-CLI-METADATA-USED', 'MUST'],
  ['CTX-CLI-FALLBACK', 'MUST'], ['CTX-CLI-VERSION-HEADER', 'SHOULD'], ['CTX-CLI-401-STARTS-FLOW', 'MUST'],
  ['CTX-CLI-PKCE-CHALLENGE', 'MUST'], ['CTX-CLI-PKCE-VERIFIER', 'MUST'], ['CTX-CLI-PKCE-FRESH', 'MUST'],
  ['CTX-CLI-STATE-CHECKED', 'STRICTER'], ['CTX-CLI-REDIRECT-URI', 'MUST'], ['CTX-CLI-REDIRECT-URI-SAME', 'MUST'],
  ['CTX-CLI-TOKEN-REQUEST', 'MUST'], ['CTX-CLI-CODE-ONCE', 'STRICTER'], ['CTX-CLI-DCR', 'SHOULD'],
  ['CTX-CLI-DCR-BODY', 'SHOULD'], ['CTX-CLI-PRECONFIGURED-CLIENT', 'MUST'], ['CTX-CLI-BEARER-EVERY', 'MUST'],
  ['CTX-CLI-TOKEN-NOT-IN-QUERY', 'MUST'], ['CTX-CLI-EXPIRED-RESTART', 'MUST'], ['CTX-CLI-REFRESH', 'SHOULD'],
];
const EXCLUDED = [
  'CTX-STDIO-ENVIRONMENT', 'CTX-OTHER-TRANSPORTS', 'CTX-SRV-DELEGATION-LIFECYCLE', 'CTX-SRV-DELEGATION-CREDENTIALS', 'CTX-SRV-DELEGATION-SESSION-TIMEOUT',
  'CTX-SRV-DELEGATION-TOKEN-CHAINING', 'CTX-CLI-SECURE-STORAGE', 'CTX-GRANT-AUDIENCE',
];

/**
 * The sections of each standard this catalog may cite. OAuth 2.1 is draft-ietf-oauth-v2-1-12:
 * every numbered section of its body. The RFCs list the sections the catalog cites, each read
 * against the RFC's table of contents; citing another one means checking it and adding it here.
 */
const SECTIONS: Record<string, ReadonlySet<string>> = {
  'OAuth 2.1': new Set(
    ('1 1.1 1.2 1.3 1.3.1 1.3.2 1.3.3 1.4 1.4.1 1.4.2 1.4.3 1.5 1.6 1.7 1.8 1.9 2 2.1 2.2 2.3 2.3.1 2.3.2 2.3.3 2.3.4 ' +
      '2.3.5 2.3.6 2.4 2.4.1 2.4.2 2.5 3 3.1 3.2 3.2.1 3.2.2 3.2.3 3.2.4 4 4.1 4.1.1 4.1.2 4.1.2.1 4.1.3 4.2 4.2.1 4.3 ' +
      '4.3.1 4.3.2 4.3.3 4.4 5 5.1 5.1.1 5.1.2 5.2 5.3 5.3.1 5.3.2 6 6.1 6.1.1 6.1.2 6.2 6.3 6.4 6.5 7 7.1 7.1.1 7.1.2 ' +
      '7.1.3 7.1.4 7.2 7.3 7.3.1 7.3.2 7.4 7.5 7.5.1 7.5.2 7.5.3 7.5.4 7.6 7.7 7.8 7.9 7.10 7.11 7.12 7.12.1 7.12.2 ' +
      '7.13 7.13.1 7.13.2 8 8.1 8.1.1 8.2 8.3 8.4 8.4.1 8.4.2 8.4.3 8.5 8.5.1 8.5.2 8.5.3 8.5.4 9 10 10.1 10.2').split(' '),
  ),
  'RFC 8414': new Set(['2', '3', '3.1', '3.2', '3.3']),
  'RFC 7591': new Set(['2', '3.1', '3.2.1', '3.2.2']),
  'RFC 7636': new Set(['4.1', '4.2', '4.3', '4.4', '4.4.1', '4.5', '4.6', '7.2']),
  'RFC 6750': new Set(['2.1', '2.3', '3', '3.1']),
  'RFC 6749': new Set(['4.1.3', '5.1', '10.12']),
  'RFC 9700': new Set(['2.1.1']),
};

/** The places of part C that say "not shown": a rule sourced there rests on a standard's section. */
const NOT_SHOWN = [
  `${SPEC_FILE}#Endpoints/C. Context-protocol endpoints/5`,
  `${SPEC_FILE}#Resources and their fields/C. Context-protocol resources`,
];

/** Each standard a text names, with the sections it cites (a bare "§x" belongs to the standard named last). */
function citations(text: string): { named: Map<string, string[]>; orphans: string[] } {
  const named = new Map<string, string[]>();
  const orphans: string[] = [];
  let current: string | undefined;
  for (const m of text.matchAll(/(RFC \d{4}|OAuth 2\.1)|§(\d+(?:\.\d+)*)/g)) {
    if (m[1] !== undefined) {
      current = m[1];
      if (!named.has(current)) named.set(current, []);
    } else if (current === undefined) orphans.push(`§${m[2] ?? ''}`);
    else named.get(current)?.push(m[2] ?? '');
  }
  return { named, orphans };
}

/**
 * The catalog alone, through the engine's loader: the catalog, the schema files and the sides
 * the catalog names (suite.yaml's `sides:` block, nothing else of it), so the cases (judged by
 * their own tests) cannot hide a catalog problem.
 */
function loadCatalog(): CatalogCopy {
  const suiteYaml = readFileSync(join(SUITE_DIR, 'suite.yaml'), 'utf8');
  const sides = /^sides:\n(?:  .*\n)+/m.exec(suiteYaml)?.[0] ?? '';
  return loadCatalogCopy('ctx-auth', ['requirements.yaml', 'schemas'], { 'suite.yaml': sides });
}

describe('ctx-auth requirement catalog', () => {
  const { suite, registry, remove } = loadCatalog();
  afterAll(remove);
  const reqs: Requirement[] = suite.requirements;
  const byId = new Map(reqs.map((r) => [r.id, r]));

  it('loads through the engine loader: schema-valid entries and schema files', () => {
    expect(reqs.length).toBeGreaterThan(0);
    for (const name of ['metadata', 'token-response', 'token-error', 'registration-response', 'registration-error'])
      expect(registry.hasSchema(`ctx-auth/${name}`), name).toBe(true);
  });

  it('holds exactly the suite design\'s IDs and levels, server side, client side, then the excluded', () => {
    const expected = [...SERVER, ...CLIENT].map(([id, level]) => `${id} ${level}`);
    const judged = reqs.filter((r) => !r.excluded).map((r) => `${r.id} ${r.level}`);
    expect(judged).toEqual(expected);
    expect(reqs.filter((r) => r.excluded).map((r) => r.id)).toEqual(EXCLUDED);
    expect(reqs.map((r) => r.id)).toEqual([...SERVER, ...CLIENT].map(([id]) => id).concat(EXCLUDED));
  });

  it('gives each excluded statement a reason that stays visible in reports', () => {
    for (const id of EXCLUDED) expect(byId.get(id)?.excluded?.length ?? 0, id).toBeGreaterThan(40);
  });

  it('starts with its schema comment and marks the client side in its own section', () => {
    const text = readFileSync(join(SUITE_DIR, 'requirements.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../../schemas/requirements.schema.json');
    const client = text.indexOf('# ================================================================ client side (CTX-CLI-*)');
    const excluded = text.indexOf('# ================================================================ not judged from outside');
    expect(client).toBeGreaterThan(0);
    expect(excluded).toBeGreaterThan(client);
    expect(text.slice(0, client).match(/^- id: CTX-CLI-/m)).toBeNull();
    expect(text.slice(client, excluded).match(/^- id: CTX-SRV-/m)).toBeNull();
  });

  it('cites every standard it names by a section that standard has', () => {
    for (const r of reqs) {
      const { named, orphans } = citations(`${r.text} ${r.excluded ?? ''}`);
      expect(orphans, `${r.id}: a section with no standard named before it`).toEqual([]);
      for (const [standard, sections] of named) {
        const known = SECTIONS[standard];
        expect(known, `${r.id}: ${standard} is not one of the standards part C rests on`).toBeDefined();
        expect(sections.length, `${r.id}: names ${standard} without a section`).toBeGreaterThan(0);
        for (const s of sections) expect(known?.has(s), `${r.id}: ${standard} §${s}`).toBe(true);
      }
    }
  });

  it('rests every rule the spec leaves "not shown" on a standard\'s section', () => {
    const resting = reqs.filter((r) => NOT_SHOWN.includes(r.source));
    expect(resting.length).toBeGreaterThan(10);
    for (const r of resting) {
      const { named } = citations(r.text);
      expect([...named.values()].some((sections) => sections.length > 0), r.id).toBe(true);
    }
  });

  it.skipIf(!existsSync(SPEC))('gives every requirement (MUST, SHOULD, or STRICTER beyond the words) a part C place the spec document has', () => {
    const spec = specOutline(readFileSync(SPEC, 'utf8'));
    for (const r of reqs) {
      expect(['MUST', 'SHOULD', 'STRICTER'], r.id).toContain(r.level);
      // "## Versioning" numbers its rules directly; everywhere else the place is part C's "###"
      const { file, place, depth, h2, h3, item, numberedHere } = specPlace(r.source);
      expect(file, r.id).toBe(SPEC_FILE);
      const section = spec.get(h2);
      expect(section, `${r.id}: no "## ${h2}"`).toBeDefined();
      if (!numberedHere) expect(h3, `${r.id}: not a part C section`).toMatch(/^C\. /);
      const lines = section?.get(h3);
      expect(lines, `${r.id}: no "### ${h3}" under "## ${h2}"`).toBeDefined();
      expect(depth, `${r.id}: ${place}`).toBeLessThanOrEqual(numberedHere ? 2 : 3);
      if (item !== undefined) expect(lines?.some((l) => l.startsWith(`${item}. `)), `${r.id}: no rule ${item} in ${h2}/${h3}`).toBe(true);
    }
  });
});
