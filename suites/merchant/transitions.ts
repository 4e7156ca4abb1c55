import * as fc from 'fast-check';
import { defineTransition, type ApiTransition, type ApiTransitions, type ResourceStore } from '../../src/engine/api/sequence-model.js';

type SourceInput = Record<string, unknown>;

/**
 * Which transition last changed each source, per sequence run: a get that finds a source in
 * the wrong state breaks the rule of the transition that should have put it there.
 */
const lastChange = new WeakMap<ResourceStore, Map<string, string>>();

function changes(store: ResourceStore): Map<string, string> {
  let m = lastChange.get(store);
  if (!m) lastChange.set(store, (m = new Map()));
  return m;
}

/** The source a command picks among those the sequence created (a made-up ID before any). */
function picked(store: ResourceStore, pick: number): string {
  return store.known.length ? (store.known[pick % store.known.length] as string) : 'specgate-missing-0';
}

const pick = (): fc.Arbitrary<number> => fc.nat({ max: 7 });

/** One state change of the table: the operation, the state it applies in, the state it leaves, and the rule names of both outcomes. */
interface StateChange {
  operation: string;
  from: 'ACTIVE' | 'ARCHIVED';
  to: 'ACTIVE' | 'ARCHIVED';
  /** Rule of the change from `from` (it must succeed and leave `to`). */
  applies: string;
  /** Rule of the same request in the other state (it must be refused). */
  refused: string;
  verb: string;
}

/** A sequence step for one state change of the table: succeeds from its own state, is refused from the other. */
function stateChange(c: StateChange): ApiTransition<never> {
  return defineTransition<number>({
    operation: c.operation,
    input: pick,
    request: (p, store) => ({ params: { conversionSourceId: picked(store, p) } }),
    apply(p, store) {
      const id = picked(store, p);
      const source = store.get(id);
      if (!source) return { status: '4XX', rule: 'gone', why: `there is no source ${id}` };
      const state = source['state'] === 'ARCHIVED' ? 'ARCHIVED' : 'ACTIVE';
      if (state !== c.from) return { status: '4XX', rule: c.refused, why: `source ${id} is ${state.toLowerCase()}; ${c.verb} applies only to an ${c.from.toLowerCase()} source` };
      store.update(id, { state: c.to }, true);
      changes(store).set(id, c.applies);
      return { status: '2XX', rule: c.applies, why: `source ${id} is ${c.from.toLowerCase()}, so ${c.verb} makes it ${c.to.toLowerCase()}` };
    },
  });
}

/**
 * The conversion-source state table (spec 001, D, States and transitions) as sequence steps:
 * DELETE archives an active source (state ACTIVE -> ARCHIVED, the source remains), POST
 * `:undelete` re-enables an archived one, and each is refused (any 4xx: the spec shows no error
 * codes) from the other state. `read` gets a source and expects the state the last transition
 * left it in. Each outcome names its rule, which the case maps to its requirement.
 */
export const conversionStates: ApiTransitions = {
  resource: 'conversionsource',
  transitions: {
    archive: stateChange({ operation: 'conversionsources.delete', from: 'ACTIVE', to: 'ARCHIVED', applies: 'archive-active', refused: 'archive-archived', verb: 'DELETE' }),
    undelete: stateChange({ operation: 'conversionsources.undelete', from: 'ARCHIVED', to: 'ACTIVE', applies: 'undelete-archived', refused: 'undelete-active', verb: ':undelete' }),
    read: defineTransition<number>({
      operation: 'conversionsources.get',
      input: pick,
      request: (p, store) => ({ params: { conversionSourceId: picked(store, p) } }),
      apply(p, store) {
        const id = picked(store, p);
        const source = store.get(id);
        if (!source) return { status: '4XX', rule: 'gone', why: `there is no source ${id}` };
        const rule = changes(store).get(id) ?? 'readBack';
        return { status: '2XX', body: { ...source, state: source['state'] ?? 'ACTIVE' }, rule, why: `source ${id} is ${String(source['state'] ?? 'ACTIVE').toLowerCase()}` };
      },
    }),
  },
};
