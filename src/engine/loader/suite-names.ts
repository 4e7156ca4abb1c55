import type { TypedCheck } from '../checks/contract.js';

/** A kind of name a suite's code registers (`<suite>.<name>`). */
export type NameKind = 'check' | 'generator' | 'oracle' | 'codec';

/**
 * What loading a suite's files asks of the names the suites register (registry.ts Registry
 * answers it from the loaded modules; suite-shape.ts namesOfShapes from kept shapes, without
 * loading any suite's code nor the engine's API verifiers): whether a name is known, a check's
 * contract, and the schemas by name.
 */
export interface SuiteNames {
  has(kind: NameKind, name: string): boolean;
  /** The check registered under `name`, which `has('check', name)` says is known. */
  check(name: string): TypedCheck;
  /** Adds schemas a suite keeps as files (`suites/<suite>/schemas/*.json`), known as `<suite>/<name>`. */
  addSchemas(suite: string, schemas: Record<string, object>): void;
  hasSchema(name: string): boolean;
  /** The JSON Schema registered under `<suite>/<name>`, or undefined. */
  schema(name: string): object | undefined;
}
