import type { ErrorObject } from 'ajv';
import { getPath } from './json-path.js';

/**
 * Which objects of a value a schema names by a discriminator, and which branch of a `oneOf` or
 * `anyOf` a failing value meant. ajv reports every branch of a failed `oneOf`; a reader wants the
 * errors of the branch the value was written for only (the one whose discriminator it carries, or
 * the one whose type it has), and the object named by that discriminator (`PushEvent`).
 */

type Schema = Record<string, unknown>;

function isSchema(v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The instance path as segments (`/0/payload` -> ['0', 'payload']). */
export function pointerSegments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The `const` (or one-value `enum`) properties of a schema: what tells its objects apart. */
function constProperties(schema: unknown): [string, unknown][] {
  if (!isSchema(schema) || !isSchema(schema['properties'])) return [];
  const out: [string, unknown][] = [];
  for (const [k, p] of Object.entries(schema['properties'])) {
    if (!isSchema(p)) continue;
    if ('const' in p) out.push([k, p['const']]);
    else if (Array.isArray(p['enum']) && p['enum'].length === 1) out.push([k, p['enum'][0]]);
  }
  return out;
}

/** How an object is named by its discriminator value: `PushEvent`, or `kind "push"` for a value that is no name. */
function labelOf(key: string, value: unknown): string {
  return typeof value === 'string' && /^[A-Za-z][\w.-]*$/.test(value) && /^[A-Z]/.test(value) ? value : `${key} ${JSON.stringify(value)}`;
}

/**
 * Names of the objects of `data` that the failing schema tells apart by a discriminator, by
 * instance path: from an `if` that chose a `then` by a constant (`type: PushEvent`), and from a
 * `discriminator` or constant-tagged branch of a `oneOf`/`anyOf` the object carries.
 */
export function discriminatorLabels(errors: readonly ErrorObject[], data: unknown): Map<string, string> {
  const labels = new Map<string, string>();
  for (const e of errors) {
    if (e.keyword === 'discriminator') continue; // a tag the schema does not know names nothing
    const at = getPath(data, pointerSegments(e.instancePath));
    if (e.keyword === 'if') {
      const hit = constProperties(e.schema).find(([k, c]) => isSchema(at) && at[k] === c);
      if (hit) labels.set(e.instancePath, labelOf(hit[0], hit[1]));
    }
    const disc = isSchema(e.parentSchema) ? e.parentSchema['discriminator'] : undefined;
    if (isSchema(disc) && typeof disc['propertyName'] === 'string' && isSchema(at) && at[disc['propertyName']] !== undefined)
      labels.set(e.instancePath, labelOf(disc['propertyName'], at[disc['propertyName']]));
  }
  return labels;
}

/** Keywords of a schema path that lead into a subschema judging a part of the value (one level down). */
const INTO_PART = new Set(['items', 'additionalItems', 'contains', 'additionalProperties']);
/** Keywords that lead into a subschema judging the same value. */
const SAME_VALUE = new Set(['then', 'else', 'not', 'if']);

/**
 * Names the objects an error's schema path reaches through a `oneOf`/`anyOf` branch by the
 * constants of that branch (the branch ajv's `discriminator` chose, say: `PushEvent`). The path
 * is followed from the schema's root; one that enters a definition through a reference leaves
 * the root's layout, and is not followed further.
 */
export function branchLabels(errors: readonly ErrorObject[], root: unknown, data: unknown, labels: Map<string, string>): void {
  if (!isSchema(root)) return;
  for (const e of errors) {
    if (!e.schemaPath.startsWith('#/')) continue;
    const parts = pointerSegments(e.schemaPath.slice(1));
    const raw = e.instancePath === '' ? [''] : e.instancePath.split('/');
    let node: unknown = root;
    let depth = 0;
    for (let i = 0; i < parts.length && isSchema(node); i++) {
      const k = parts[i] as string;
      if (k === 'properties' || k === 'patternProperties') {
        node = (node[k] as Record<string, unknown> | undefined)?.[parts[++i] ?? ''];
        depth++;
      } else if (k === 'items' && Array.isArray(node[k])) {
        node = (node[k] as unknown[])[Number(parts[++i])];
        depth++;
      } else if (INTO_PART.has(k)) {
        node = node[k];
        depth++;
      } else if (k === 'oneOf' || k === 'anyOf' || k === 'allOf') {
        const branch = (node[k] as unknown[] | undefined)?.[Number(parts[++i])];
        const at = raw.slice(0, depth + 1).join('/');
        const value = getPath(data, pointerSegments(at));
        const tag = k === 'allOf' || !isSchema(value) ? undefined : constProperties(branch).find(([key, c]) => value[key] === c);
        if (tag && !labels.has(at)) labels.set(at, labelOf(tag[0], tag[1]));
        node = branch;
      } else if (SAME_VALUE.has(k)) node = node[k];
      else break; // a keyword about the value itself, or a definition reached through a reference
    }
  }
}

/** A branch's JSON Schema types (none said: any). */
function branchTypes(branch: unknown): string[] | undefined {
  if (!isSchema(branch)) return undefined;
  const t = branch['type'];
  return typeof t === 'string' ? [t] : Array.isArray(t) ? t.map(String) : undefined;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' || typeof v === 'bigint') return Number.isInteger(Number(v)) ? 'integer' : 'number';
  return typeof v;
}

/**
 * The branch of a failed `oneOf`/`anyOf` the value was meant for: the one whose constant
 * properties it carries, else the only one whose type it has; undefined when that is not one.
 */
export function meantBranch(branches: readonly unknown[], value: unknown): { index: number; label?: string } | undefined {
  if (isSchema(value)) {
    const tagged = branches.flatMap((b, i) => {
      const consts = constProperties(b);
      const hit = consts.length > 0 && consts.every(([k, c]) => value[k] === c) ? consts[0] : undefined;
      return hit ? [{ index: i, label: labelOf(hit[0], hit[1]) }] : [];
    });
    if (tagged.length === 1) return tagged[0];
  }
  const t = typeOf(value);
  const typed = branches.flatMap((b, i) => {
    const ts = branchTypes(b);
    return ts === undefined || ts.includes(t) || (t === 'integer' && ts.includes('number')) ? [i] : [];
  });
  return typed.length === 1 ? { index: typed[0] as number } : undefined;
}

/**
 * The errors a reader should see of a failed `oneOf`/`anyOf`: those of the branch the value
 * was meant for, without the branch-choice error itself, and with its label; or, when no branch
 * can be told to be meant, the choice error alone. Every error that came from one of its
 * branches precedes the choice error (ajv reports them in that order) and lies at or below its
 * instance path; those written inside another branch carry that branch's schema path.
 */
export function narrowBranches(errors: readonly ErrorObject[], data: unknown, labels: Map<string, string>): ErrorObject[] {
  const drop = new Set<number>();
  errors.forEach((e, j) => {
    if ((e.keyword !== 'oneOf' && e.keyword !== 'anyOf') || !Array.isArray(e.schema)) return;
    if (e.keyword === 'oneOf' && isSchema(e.params) && Array.isArray(e.params['passingSchemas'])) return; // more than one held: nothing to narrow
    const prefix = `${e.schemaPath}/`;
    const parent = e.schemaPath.slice(0, e.schemaPath.lastIndexOf('/') + 1);
    const children: number[] = [];
    for (let i = j - 1; i >= 0; i--) {
      const c = errors[i] as ErrorObject;
      const below = c.instancePath === e.instancePath || c.instancePath.startsWith(`${e.instancePath}/`);
      const fromBranch = c.schemaPath.startsWith(prefix) || !c.schemaPath.startsWith(parent);
      if (!below || !fromBranch) break;
      children.push(i);
    }
    const meant = meantBranch(e.schema, getPath(data, pointerSegments(e.instancePath)));
    if (meant === undefined) {
      for (const i of children) drop.add(i);
      return;
    }
    if (meant.label !== undefined && !labels.has(e.instancePath)) labels.set(e.instancePath, meant.label);
    const own = `${prefix}${meant.index}/`;
    for (const i of children) {
      const sp = (errors[i] as ErrorObject).schemaPath;
      if (sp.startsWith(prefix) && !sp.startsWith(own)) drop.add(i);
    }
    drop.add(j);
  });
  return errors.filter((_, i) => !drop.has(i));
}
