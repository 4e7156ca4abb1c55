import type { ErrorObject } from 'ajv';
import { previewJson } from '../checks/value-preview.js';
import { branchLabels, discriminatorLabels, narrowBranches, pointerSegments } from './schema-branches.js';

/** One violation as ajv reported it, kept whole for the JSON report. */
export interface RawSchemaError {
  /** JSON pointer of the value (`/0/payload`). */
  path: string;
  keyword: string;
  message: string;
  /** The schema path of the rule broken (`#/definitions/platform-push-payload/required`). */
  rule: string;
  params: Record<string, unknown>;
}

/** What a value breaks of a schema: one plain sentence per violation, and ajv's own errors. */
export interface SchemaFindings {
  problems: string[];
  raw: RawSchemaError[];
}

/** The longest schema title that still names an object in a sentence. */
const TITLE_CHARS = 60;
/** The longest schema description read as the form a value takes (`ISO 8601 date-time`). */
const DESCRIPTION_CHARS = 40;
const VALUE_CHARS = 60;
/** ajv's errors kept for the JSON report: a hostile answer breaks a rule once per item. */
const KEPT_RAW_ERRORS = 100;

/**
 * ajv's errors of `value` as sentences a vendor acts on: which field, of which object (named by
 * its discriminator, `PushEvent`, or its schema's title), and what was expected —
 * "PushEvent payload lacks repository_id (at [0].payload)", "events[3].created_at: expected a
 * string, got 12". Of a failed `oneOf`/`anyOf` only the branch the value was meant for speaks;
 * an `if` that chose a `then` is said by the `then`'s own errors. `schema` (the one validated
 * against) lets the branches ajv's `discriminator` chose name their objects.
 */
export function schemaFindings(errors: readonly ErrorObject[] | null | undefined, value: unknown, schema?: object): SchemaFindings {
  const all = errors ?? [];
  const labels = discriminatorLabels(all, value);
  branchLabels(all, schema, value, labels);
  const kept = narrowBranches(all, value, labels).filter((e) => e.keyword !== 'if');
  const problems = [...new Set(kept.map((e) => sentence(e, labels)))];
  const raw = all.slice(0, KEPT_RAW_ERRORS).map((e) => ({ path: e.instancePath, keyword: e.keyword, message: e.message ?? e.keyword, rule: e.schemaPath, params: { ...e.params } }));
  return { problems, raw };
}

/** `events[3].created_at`, `[0].payload` (a list at the root), `"x-y".z` never: keys that are no names are quoted. */
export function pathText(segments: readonly string[]): string {
  let out = '';
  for (const s of segments) {
    if (/^\d+$/.test(s)) out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** The object or field an error is about, in words, and where it is when the words do not say it. */
function subjectOf(e: ErrorObject, labels: Map<string, string>): { text: string; at: string } {
  const raw = e.instancePath === '' ? [''] : e.instancePath.split('/');
  const segments = pointerSegments(e.instancePath);
  for (let n = raw.length; n >= 1; n--) {
    const label = labels.get(raw.slice(0, n).join('/'));
    if (label === undefined) continue;
    const rest = pathText(segments.slice(n - 1));
    return { text: rest ? `${label} ${rest}` : label, at: segments.length ? ` (at ${pathText(segments)})` : '' };
  }
  const where = pathText(segments);
  const title = objectKeyword(e.keyword) ? shortTitle(e.parentSchema) : undefined;
  if (title === undefined) return { text: where || 'the value', at: '' };
  return { text: where ? `${where} (${title})` : title, at: '' };
}

/** Keywords whose error is about the object itself (its fields), not about the value's own form. */
function objectKeyword(keyword: string): boolean {
  return keyword === 'required' || keyword === 'additionalProperties' || keyword === 'discriminator';
}

function shortTitle(schema: unknown): string | undefined {
  const t = schema !== null && typeof schema === 'object' ? (schema as Record<string, unknown>)['title'] : undefined;
  if (typeof t !== 'string') return undefined;
  const plain = t.replace(/\s*\([^)]*\)\s*$/, '').trim();
  return plain && plain.length <= TITLE_CHARS ? plain : undefined;
}

function sentence(e: ErrorObject, labels: Map<string, string>): string {
  const { text, at } = subjectOf(e, labels);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${text} lacks ${String(p['missingProperty'])}${at}`;
    case 'additionalProperties':
      return `${text} has a field \`${String(p['additionalProperty'])}\` the schema does not allow${at}`;
    case 'discriminator':
      return p['error'] === 'tag'
        ? `${text} has no text field ${String(p['tag'])}, which tells what kind of object it is${at}`
        : `${text} has ${String(p['tag'])} ${JSON.stringify(p['tagValue'])}, none of the kinds the schema knows${at}`;
    default:
      return `${text}: ${expectation(e)}${at}`;
  }
}

/** What the rule wanted and what the value was. */
function expectation(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const schema = (e.parentSchema ?? {}) as Record<string, unknown>;
  const got = `got ${shown(e.data)}`;
  switch (e.keyword) {
    case 'type':
      return `expected ${typeWords(String(p['type']), schema)}, ${got}`;
    case 'pattern':
      return `expected ${describedForm(schema) ?? `text matching /${String(p['pattern'])}/`}, ${got}`;
    case 'format':
      return `expected a ${String(p['format'])} string, ${got}`;
    case 'enum':
      return `expected one of ${(Array.isArray(p['allowedValues']) ? p['allowedValues'] : []).map((v) => JSON.stringify(v)).join(', ')}, ${got}`;
    case 'const':
      return `expected ${JSON.stringify(p['allowedValue'])}, ${got}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `expected a number ${String(p['comparison'])} ${String(p['limit'])}, ${got}`;
    case 'minLength':
    case 'maxLength':
      return `expected ${e.keyword === 'minLength' ? 'at least' : 'at most'} ${String(p['limit'])} characters, ${got}`;
    case 'minItems':
    case 'maxItems':
      return `expected ${e.keyword === 'minItems' ? 'at least' : 'at most'} ${String(p['limit'])} items, ${got}`;
    case 'minProperties':
    case 'maxProperties':
      return `expected ${e.keyword === 'minProperties' ? 'at least' : 'at most'} ${String(p['limit'])} fields, ${got}`;
    case 'uniqueItems':
      return `items ${String(p['j'])} and ${String(p['i'])} are equal, where the schema wants every item different`;
    case 'oneOf':
    case 'anyOf':
      if (Array.isArray(p['passingSchemas'])) return `matches ${p['passingSchemas'].length} of the forms the schema allows, where it must match exactly one`;
      return `matches none of the forms the schema allows (${forms(e.schema)}), ${got}`;
    case 'not':
      return `matches a form the schema forbids, ${got}`;
    default:
      return e.message ?? e.keyword;
  }
}

const TYPE_WORDS: Record<string, string> = { integer: 'an integer', number: 'a number', string: 'a string', object: 'an object', array: 'an array', boolean: 'true or false', null: 'null' };

function typeWords(types: string, schema: Record<string, unknown>): string {
  const words = types.split(',').map((t) => TYPE_WORDS[t] ?? t);
  if (types === 'string') {
    if (typeof schema['format'] === 'string') return `a ${schema['format']} string`;
    const form = describedForm(schema);
    if (form !== undefined) return `a string (${form})`;
  }
  return words.join(' or ');
}

/** A schema's short description, read as the form of its value (`ISO 8601 date-time`); none for notes such as "may be empty". */
function describedForm(schema: Record<string, unknown>): string | undefined {
  const d = schema['description'];
  return typeof d === 'string' && d.length <= DESCRIPTION_CHARS && !/\b(may|for example|e\.g\.)\b/i.test(d) ? d : undefined;
}

/** The forms a `oneOf`/`anyOf` allows, by title or type. */
function forms(branches: unknown): string {
  if (!Array.isArray(branches)) return 'see the schema';
  return branches
    .map((b) => {
      const s = (b ?? {}) as Record<string, unknown>;
      const t = shortTitle(s) ?? (typeof s['type'] === 'string' ? (TYPE_WORDS[s['type']] ?? s['type']) : Array.isArray(s['type']) ? s['type'].join(' or ') : undefined);
      return t ?? (typeof s['$ref'] === 'string' ? s['$ref'].replace(/^#\/(definitions|\$defs)\//, '') : 'a form');
    })
    .join('; ');
}

/** A value as a sentence shows it: short, and the kind of a container rather than its text. */
function shown(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return `a list of ${v.length} item${v.length === 1 ? '' : 's'}`;
  if (v !== null && typeof v === 'object') return 'an object';
  return previewJson(v, VALUE_CHARS) ?? String(v);
}
