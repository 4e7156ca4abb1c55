import * as fc from 'fast-check';
import { defineTransition, type ApiTransitions, type ResourceStore } from '../../src/engine/api/sequence-model.js';

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
    archive: defineTransition<number>({
      operation: 'conversionsources.delete',
      input: pick,
      request: (p, store) => ({ params: { conversionSourceId: picked(store, p) } }),
      apply(p, store) {
        const id = picked(store, p);
        const source = store.get(id);
        if (!source) return { status: '4XX', rule: 'gone', why: `there is no source ${id}` };
        if (source['state'] === 'ARCHIVED') return { status: '4XX', rule: 'archive-archived', why: `source ${id} is already archived; DELETE archives only an active source` };
        store.update(id, { state: 'ARCHIVED' }, true);
        changes(store).set(id, 'archive-active');
        return { status: '2XX', rule: 'archive-active', why: `source ${id} is active, so DELETE archives it` };
      },
    }),
    undelete: defineTransition<number>({
      operation: 'conversionsources.undelete',
      input: pick,
      request: (p, store) => ({ params: { conversionSourceId: picked(store, p) } }),
      apply(p, store) {
        const id = picked(store, p);
        const source = store.get(id);
        if (!source) return { status: '4XX', rule: 'gone', why: `there is no source ${id}` };
        if (source['state'] !== 'ARCHIVED') return { status: '4XX', rule: 'undelete-active', why: `source ${id} is active; :undelete applies only to an archived source` };
        store.update(id, { state: 'ACTIVE' }, true);
        changes(store).set(id, 'undelete-archived');
        return { status: '2XX', rule: 'undelete-archived', why: `source ${id} is archived, so :undelete re-enables it` };
      },
    }),
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
