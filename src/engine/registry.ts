import { SpecgateError } from '../errors.js';
import { API_CHECKS, API_NAMESPACE } from './api/verifiers/index.js';
import { jsonSafe, schemaValidator } from './loader/schema-check.js';
import { schemaFindings, type SchemaFindings } from './schema-sentences.js';
import type { Codec, GeneratorFactory, Oracle, SuiteModule, TypedCheck } from './suite-module.js';

type Kind = 'check' | 'generator' | 'oracle' | 'codec';

/**
 * Every name a suite file may use (`<suite>.<name>` for code, `<suite>/<name>` for schemas),
 * built from the loaded SuiteModules. The engine resolves names only through here.
 */
export class Registry {
  private readonly modules = new Map<string, SuiteModule>();
  private readonly fileSchemas = new Map<string, object>();

  constructor(modules: Iterable<SuiteModule>) {
    for (const m of modules) this.modules.set(m.name, m);
  }

  module(name: string): SuiteModule {
    const m = this.modules.get(name);
    if (!m) throw new SpecgateError('SG_SUITE_UNKNOWN', `no suite named "${name}"; known suites: ${[...this.modules.keys()].join(', ')}`);
    return m;
  }

  has(kind: Kind, name: string): boolean {
    return this.find(kind, name) !== undefined;
  }

  check(name: string): TypedCheck {
    return this.get('check', name) as TypedCheck;
  }
  generator(name: string): GeneratorFactory {
    return this.get('generator', name) as GeneratorFactory;
  }
  oracle(name: string): Oracle {
    return this.get('oracle', name) as Oracle;
  }
  codec(name: string): Codec {
    return this.get('codec', name) as Codec;
  }

  /** Adds schemas a suite keeps as files (`suites/<suite>/schemas/*.json`), known as `<suite>/<name>`. */
  addSchemas(suite: string, schemas: Record<string, object>): void {
    for (const [key, schema] of Object.entries(schemas)) this.fileSchemas.set(`${suite}/${key}`, schema);
  }

  hasSchema(name: string): boolean {
    return this.schemaObject(name) !== undefined;
  }

  /** Every JSON Schema of one suite: its files and the ones its module gives. */
  suiteSchemas(suite: string): object[] {
    const prefix = `${suite}/`;
    const files = [...this.fileSchemas].filter(([name]) => name.startsWith(prefix)).map(([, s]) => s);
    return [...files, ...Object.values(this.modules.get(suite)?.schemas ?? {})];
  }

  /** The JSON Schema registered under `<suite>/<name>`, or undefined. */
  schema(name: string): object | undefined {
    return this.schemaObject(name);
  }

  private schemaObject(name: string): object | undefined {
    const hit = this.fileSchemas.get(name);
    if (hit) return hit;
    const [suite, key] = name.split('/');
    return suite && key ? ownEntry(this.modules.get(suite)?.schemas, key) : undefined;
  }

  /** Sentences saying what `value` breaks of the named schema (empty when valid). */
  validateSchema(name: string, value: unknown): string[] {
    return this.checkSchema(name, value).problems;
  }

  /** What `value` breaks of the named schema: plain sentences, and ajv's errors for the JSON report. */
  checkSchema(name: string, value: unknown): SchemaFindings {
    const schema = this.schemaObject(name);
    if (!schema) throw new SpecgateError('SG_SUITE_UNKNOWN', `no schema named "${name}" (form: <suite>/<name>)`);
    const v = schemaValidator(name, schema);
    const safe = jsonSafe(value);
    if (v(safe)) return { problems: [], raw: [] };
    return schemaFindings(v.errors, safe, schema);
  }

  private find(kind: Kind, name: string): unknown {
    const dot = name.indexOf('.');
    if (dot < 0) return undefined;
    const m = this.modules.get(name.slice(0, dot));
    const key = name.slice(dot + 1);
    // `api.<name>`: the engine's own verifiers of a suite's API table (a reserved namespace)
    if (kind === 'check' && name.slice(0, dot) === API_NAMESPACE) return Object.hasOwn(API_CHECKS, key) ? API_CHECKS[key] : undefined;
    const table: Record<string, unknown> | undefined =
      kind === 'check' ? m?.checks : kind === 'generator' ? m?.generators : kind === 'oracle' ? m?.oracles : m?.codecs;
    return ownEntry(table, key);
  }

  private get(kind: Kind, name: string): unknown {
    const hit = this.find(kind, name);
    if (hit !== undefined) return hit;
    const dot = name.indexOf('.');
    if (kind === 'check' && name.slice(0, dot) === API_NAMESPACE)
      throw new SpecgateError('SG_SUITE_UNKNOWN', `no check named "${name}"; known: ${Object.keys(API_CHECKS).map((k) => `${API_NAMESPACE}.${k}`).join(', ')}`);
    const m = dot > 0 ? this.modules.get(name.slice(0, dot)) : undefined;
    const table = kind === 'check' ? m?.checks : kind === 'generator' ? m?.generators : kind === 'oracle' ? m?.oracles : m?.codecs;
    const known = m ? Object.keys(table ?? {}).map((k) => `${m.name}.${k}`) : [];
    throw new SpecgateError('SG_SUITE_UNKNOWN', `no ${kind} named "${name}"${known.length ? `; known: ${known.join(', ')}` : ' (form: <suite>.<name>)'}`);
  }
}

export type { Codec, GeneratorFactory, Oracle, TypedCheck };

/** `table[key]` when the table has that key of its own: a name such as `toString` or `constructor` names nothing. */
function ownEntry<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return table && Object.hasOwn(table, key) ? table[key] : undefined;
}
