import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSuites } from '../../../src/engine/run.js';
import { fromRoot } from '../../../src/paths.js';
import { platformSuite } from './run-affiliate.js';

/** The spec document of part E, in the shared folder beside this repository. */
const SPEC = fromRoot('..', 'shared', 'specs', '001_5e21481c28ca383d.txt');

/** The headings of the spec: "## X" -> its "### Y" -> its "#### Z". */
function outline(text: string): Map<string, Map<string, Set<string>>> {
  const top = new Map<string, Map<string, Set<string>>>();
  let h2: Map<string, Set<string>> | undefined;
  let h3: Set<string> | undefined;
  for (const line of text.split(/\r?\n/)) {
    const m = /^(#{2,4}) (.+)$/.exec(line);
    if (!m) continue;
    const [, marks, title] = m as unknown as [string, string, string];
    if (marks.length === 2) top.set(title, (h2 = new Map()));
    else if (marks.length === 3 && h2) h2.set(title, (h3 = new Set()));
    else if (marks.length === 4 && h3) h3.add(title);
  }
  return top;
}

describe('affiliate requirement catalog', () => {
  const platform = platformSuite();
  afterAll(() => platform.dispose());
  const loaded = loadSuites([platform.module], ['affiliate']).suites[0];
  const reqs = (loaded?.requirements ?? []).filter((r) => !r.id.startsWith('AFF-INT-'));
  const cases = loaded?.cases ?? [];

  it('has the platform-side IDs, unique, each with a case or a reason it is excluded', () => {
    expect(reqs.length).toBeGreaterThan(60);
    expect(new Set(reqs.map((r) => r.id)).size).toBe(reqs.length);
    const covered = new Set(cases.flatMap((c) => c.requirements));
    const bare = reqs.filter((r) => !r.excluded && !covered.has(r.id)).map((r) => r.id);
    expect(bare).toEqual([]);
    for (const r of reqs.filter((x) => x.excluded)) expect(r.excluded?.length ?? 0, r.id).toBeGreaterThan(20);
    // the points the spec leaves open stay visible as exclusions
    const excluded = new Set(reqs.filter((r) => r.excluded).map((r) => r.id));
    for (const id of ['AFF-ERROR-CODES', 'AFF-SALE-STATUS-VALUES', 'AFF-POSTBACK-VALUES', 'AFF-POSTBACK-PAYLOADS', 'AFF-VERSIONING-OTHER', 'AFF-ENDPOINT-PATHS']) expect(excluded.has(id), id).toBe(true);
    for (const field of ['EMAIL', 'FIRSTNAME', 'LASTNAME', 'PASSWORD', 'IP', 'PHONE']) expect(reqs.some((r) => r.id === `AFF-REGISTER-REQUIRED-${field}`), field).toBe(true);
  });

  it('keeps a marked section for the integration side at the end of the file', () => {
    const text = readFileSync(fromRoot('suites', 'affiliate', 'requirements.yaml'), 'utf8');
    const marker = text.indexOf('# ================================================================ integration side (AFF-INT-*)');
    expect(marker).toBeGreaterThan(0);
    expect(text.slice(marker).match(/^- id: AFF-(?!INT-)/m)).toBeNull();
  });

  it.skipIf(!existsSync(SPEC))('cites sections the spec document has', () => {
    const spec = outline(readFileSync(SPEC, 'utf8'));
    for (const r of reqs) {
      const [file, place = ''] = r.source.split('#');
      expect(file, r.id).toBe('001_5e21481c28ca383d.txt');
      // a "####" heading may hold slashes itself (a content type, a path): the third part is the rest
      const [h2 = '', h3, ...rest] = place.split('/');
      const h4 = rest.length ? rest.join('/') : undefined;
      const section = spec.get(h2);
      expect(section, `${r.id}: no "## ${h2}"`).toBeDefined();
      if (h3 === undefined || /^\d+$/.test(h3)) continue;
      const sub = section?.get(h3);
      expect(sub, `${r.id}: no "### ${h3}" under "## ${h2}"`).toBeDefined();
      // a third part is a "####" heading of that subsection, or a numbered rule of it
      if (h4 !== undefined && !/^\d+$/.test(h4)) expect(sub?.has(h4), `${r.id}: no "#### ${h4}" under "### ${h3}"`).toBe(true);
    }
  });
});
