import type { TypedCheck } from '../checks/contract.js';
import type { SuiteModule } from '../suite-module.js';
import type { NameKind, SuiteNames } from './suite-names.js';
import { checksOfShapes, moduleOfShape, ShapeShortError, type SuiteShape } from './suite-shape.js';

/** The namespace of the engine's API verifiers (registry.ts resolves `api.<name>` the same way). */
const API_NAMESPACE = 'api';

/**
 * The names of suites as their kept shapes (suite-shape.ts) give them, resolved exactly as the
 * registry (registry.ts) resolves them from the loaded modules: `<suite>.<name>` for code,
 * `api.<name>` for the engine's API verifiers, `<suite>/<name>` for schemas. It loads neither
 * a suite's code nor the verifiers'.
 */
export class ShapeNames implements SuiteNames {
  private readonly modules = new Map<string, SuiteModule>();
  private readonly api: Record<string, TypedCheck>;
  private readonly fileSchemas = new Map<string, object>();

  /** `shapes` are of the same build: the API verifiers are taken from the first. */
  constructor(shapes: readonly SuiteShape[]) {
    for (const s of shapes) this.modules.set(s.name, moduleOfShape(s));
    this.api = checksOfShapes(shapes[0]?.apiChecks ?? {});
  }

  /** The modules made from the shapes, in their order. */
  suiteModules(): SuiteModule[] {
    return [...this.modules.values()];
  }

  has(kind: NameKind, name: string): boolean {
    return this.find(kind, name) !== undefined;
  }

  check(name: string): TypedCheck {
    const hit = this.find('check', name);
    // the registry would say which names it knows: the loaded code says it best
    if (hit === undefined) throw new ShapeShortError(`a check named ${name}`);
    return hit as TypedCheck;
  }

  addSchemas(suite: string, schemas: Record<string, object>): void {
    for (const [key, schema] of Object.entries(schemas)) this.fileSchemas.set(`${suite}/${key}`, schema);
  }

  hasSchema(name: string): boolean {
    return this.schema(name) !== undefined;
  }

  schema(name: string): object | undefined {
    const hit = this.fileSchemas.get(name);
    if (hit) return hit;
    const [suite, key] = name.split('/');
    return suite && key ? ownEntry(this.modules.get(suite)?.schemas, key) : undefined;
  }

  private find(kind: NameKind, name: string): unknown {
    const dot = name.indexOf('.');
    if (dot < 0) return undefined;
    const m = this.modules.get(name.slice(0, dot));
    const key = name.slice(dot + 1);
    if (kind === 'check' && name.slice(0, dot) === API_NAMESPACE) return Object.hasOwn(this.api, key) ? this.api[key] : undefined;
    const table: Record<string, unknown> | undefined =
      kind === 'check' ? m?.checks : kind === 'generator' ? m?.generators : kind === 'oracle' ? m?.oracles : m?.codecs;
    return ownEntry(table, key);
  }
}

/** `table[key]` when the table has that key of its own: a name such as `toString` or `constructor` names nothing. */
function ownEntry<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return table && Object.hasOwn(table, key) ? table[key] : undefined;
}
