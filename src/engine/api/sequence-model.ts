import type * as fc from 'fast-check';
import type { ApiTable, StatusRule } from './table.js';

/**
 * The reference model stateful sequences compare a target against: the items of one resource
 * the sequence created, keyed by the ID the target gave them, with the fields a correct API
 * must answer for each, and the IDs it removed (which must stay gone).
 */
export class ResourceStore {
  private readonly live = new Map<string, Record<string, unknown>>();
  private readonly removed = new Set<string>();
  /** Every ID the sequence learnt, in order (live or removed), for commands that pick one. */
  readonly known: string[] = [];

  /** An item the target created; an ID the caller chooses may name a removed item again. */
  add(id: string, fields: Record<string, unknown>): void {
    this.live.set(id, fields);
    this.removed.delete(id);
    if (!this.known.includes(id)) this.known.push(id);
  }
  get(id: string): Record<string, unknown> | undefined {
    return this.live.get(id);
  }
  /** Replaces (PUT) or merges into (PATCH) a live item's fields. */
  update(id: string, fields: Record<string, unknown>, merge: boolean): void {
    const cur = this.live.get(id);
    if (cur) this.live.set(id, merge ? { ...cur, ...fields } : fields);
  }
  remove(id: string): void {
    if (this.live.delete(id)) this.removed.add(id);
  }
  isRemoved(id: string): boolean {
    return this.removed.has(id);
  }
  liveIds(): string[] {
    return [...this.live.keys()];
  }
  removedIds(): string[] {
    return [...this.removed];
  }
}

/** What a registered transition's input generator may use. */
export interface TransitionTools {
  /** Values satisfying a schema the table names (`<suite>/<name>`). */
  bodyOf(schema: string): fc.Arbitrary<unknown>;
}

/** A request a transition sends, by the operation the transition names. */
export interface TransitionRequest {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  json?: unknown;
}

/**
 * A step of a suite's own, beyond the generic create/get/list/update/delete: it generates an
 * input, sends one operation, and says (from the model) what a correct target answers,
 * applying its effect to the store. `expected.body` is matched partially (every field given
 * must be equal; arrays item by item).
 */
export interface ApiTransition<I = unknown> {
  /** The operation ID it sends. */
  operation: string;
  input(tools: TransitionTools): fc.Arbitrary<I>;
  request(input: I, store: ResourceStore): TransitionRequest;
  /**
   * What a correct target answers; the transition updates the store. `answer` is what the target
   * said, for what only the target chooses (the IDs it assigned).
   */
  apply(input: I, store: ResourceStore, answer: { status: number; body: unknown }): TransitionOutcome;
}

/** What the model says a correct target answers a transition. */
export interface TransitionOutcome {
  /** A status, or a class (`4XX`) when the API's error codes are not known. */
  status: StatusRule;
  /** Matched partially against the answer. */
  body?: unknown;
  /** The model's reason, shown in a failure (e.g. "the source is archived, so it cannot be archived again"). */
  why?: string;
  /**
   * The name of the rule a mismatch breaks (default `transition`), for a step's `requirements:`
   * map to attribute it to the suite's own requirement (e.g. `archive-from-active`).
   */
  rule?: string;
}

/** The transitions a suite registers for one resource (SuiteModule `apiModels`). */
export interface ApiTransitions {
  /** The resource of the suite's api.yaml these transitions act on. */
  resource: string;
  transitions: Record<string, ApiTransition<never>>;
}

/** Declares a transition; the identity, typed so `request` and `apply` see the input's shape. */
export function defineTransition<I>(t: ApiTransition<I>): ApiTransition<never> {
  return t as unknown as ApiTransition<never>;
}

/** What the `api.*` checks read from a case's suite. */
export interface ApiContext {
  table: ApiTable;
  models: Readonly<Record<string, ApiTransitions>>;
  /** The target's names for the spec's neutral path segments (profile `paths:`). */
  pathNames: Readonly<Record<string, string>>;
}

/** The API context of a suite, or undefined when it has no table. */
export function apiContext(table: ApiTable | undefined, models: Readonly<Record<string, ApiTransitions>> | undefined, pathNames: Readonly<Record<string, string>> = {}): ApiContext | undefined {
  return table ? { table, models: models ?? {}, pathNames } : undefined;
}
