import * as fc from 'fast-check';
import { defineTransition, type ApiTransitions } from '../../src/engine/api/sequence-model.js';
import { getPath } from '../../src/engine/json-path.js';

type NoteInput = Record<string, unknown>;

/**
 * The notes API's own step for stateful sequences (notes-spec.txt#Batches): a batch creates
 * every note it holds, in order, so the model adds each with the ID the service gave it.
 */
export const batchCreate: ApiTransitions = {
  resource: 'note',
  transitions: {
    batchCreate: defineTransition<NoteInput[]>({
      operation: 'batchCreateNotes',
      input: (t) => fc.array(t.bodyOf('notes/note-input') as fc.Arbitrary<NoteInput>, { minLength: 1, maxLength: 3 }),
      request: (items) => ({ json: { items } }),
      apply(items, store, answer) {
        const results = getPath(answer.body, '$.results');
        if (Array.isArray(results))
          results.forEach((r, i) => {
            const id = getPath(r, '$.id');
            const input = items[i];
            if (typeof id === 'string' && input) store.add(id, input);
          });
        return { status: 200, body: { results: items.map(() => ({ status: 201 })) } };
      },
    }),
  },
};
