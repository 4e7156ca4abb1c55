import { SpecgateError } from '../../errors.js';
import type { TargetSection } from '../../targets/target-section.js';
import { nearestNames } from '../near-names.js';
import type { CaseDef, SourceLocation } from '../model.js';

/**
 * Every field name the schemas of a suite write (the keys of their `properties` and the
 * names their `required` lists), at any depth: the neutral names a profile's `fields:` may map.
 */
export function specFieldNames(schemas: Iterable<object>): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    const s = node as Record<string, unknown>;
    const props = s['properties'];
    if (props !== null && typeof props === 'object' && !Array.isArray(props)) for (const k of Object.keys(props)) names.add(k);
    if (Array.isArray(s['required'])) for (const k of s['required']) if (typeof k === 'string') names.add(k);
    for (const v of Object.values(s)) walk(v);
  };
  for (const schema of schemas) walk(schema);
  return names;
}

/**
 * The names the requests of `cases` send as form fields and query parameters (the keys their
 * steps write, fragments merged): the spec's names too, which a profile's `fields:` may map.
 */
export function sentFieldNames(cases: Iterable<Pick<CaseDef, 'steps'>>): Set<string> {
  const names = new Set<string>();
  for (const c of cases)
    for (const step of c.steps)
      if ('request' in step) for (const key of [...Object.keys(step.request.form ?? {}), ...Object.keys(step.request.query ?? {})]) names.add(key);
  return names;
}

/** The keys the JSON bodies of the requests of `cases` write, at any depth. */
export function sentJsonKeys(cases: Iterable<Pick<CaseDef, 'steps'>>): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      names.add(k);
      walk(v);
    }
  };
  for (const c of cases) for (const step of c.steps) if ('request' in step) walk(step.request.json);
  return names;
}

/**
 * The names a profile's `fields:` maps that the suite's cases send both as a JSON body key and as
 * a form field or query parameter: `fields:` renames them in all of these (form and query keys
 * too, since it no longer renames JSON alone), which a vendor naming them apart would not expect.
 */
export function ambiguousFieldNames(section: Pick<TargetSection, 'fieldNames'>, cases: Iterable<Pick<CaseDef, 'steps'>>): string[] {
  const mapped = Object.keys(section.fieldNames ?? {});
  if (!mapped.length) return [];
  const list = [...cases];
  const sent = sentFieldNames(list);
  const json = sentJsonKeys(list);
  return mapped.filter((name) => sent.has(name) && json.has(name));
}

/**
 * A profile's `fields:` naming a field no schema of the suite has, nor a form or a query its
 * cases send: the map would rename nothing the spec defines (a typo, most likely), and the
 * vendor's field would go on failing the checks as missing. Reported at the key, with the
 * nearest names the suite has.
 */
export function fieldNameProblems(suite: string, section: TargetSection, known: ReadonlySet<string>, where: (loc: SourceLocation | undefined) => string): SpecgateError[] {
  const errors: SpecgateError[] = [];
  for (const name of Object.keys(section.fieldNames ?? {})) {
    if (known.has(name)) continue;
    const near = nearestNames(name, [...known], 1);
    const loc = section.locations?.field?.[name] ?? section.location;
    const hint = near.length ? `did you mean "${near[0]}"? ` : '';
    errors.push(new SpecgateError(
      'SG_CONFIG',
      `${where(loc)}fields.${name} names a field no schema of suite ${suite} has, nor a form or query its cases send; ${hint}the keys of fields: are the spec's field names, their values the target's`,
      { suite, field: name, suggestions: near },
    ));
  }
  return errors;
}
