import { defineCheck } from '../../../src/engine/checks/contract.js';
import { CollationRefused } from '../ports/types.js';
import { quoted, shown, withPort } from './port.js';

interface SortsArgs {
  collation: Record<string, unknown>;
  /** The expected order: each entry a string, or a list of strings that tie (any order among them). */
  order: (string | string[])[];
  requirement?: string;
  because?: string;
}

/**
 * `collation.sorts`: a fixed word list sorted by the target under a collation document, against
 * the order ICU's rules give it (written out in the case, ties grouped). The words are sent in
 * reverse of the expected order, so a target that keeps the input order fails.
 */
export const sortsCheck = defineCheck<SortsArgs>({
  description: 'a fixed word list sorted by the target under a collation, against the order written in the case',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['collation', 'order'],
    properties: {
      collation: { type: 'object' },
      order: { type: 'array', minItems: 2, items: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, minItems: 2 }] } },
      requirement: { type: 'string', pattern: '^COLL-[A-Z0-9-]+$' },
      because: { type: 'string', description: 'why ICU orders them so, for the failure message' },
    },
  },
  judges: 'case',
  async run(ctx, args) {
    const groups = args.order.map((g) => (Array.isArray(g) ? g : [g]));
    const words = groups.flat().reverse();
    const attributed = args.requirement ? { requirement: args.requirement } : {};
    await withPort(ctx, async (port) => {
      let got: string[];
      try {
        got = await port.sort(words, args.collation, ctx.signal);
      } catch (e) {
        if (e instanceof CollationRefused) {
          ctx.fail({ ...attributed, message: `the target refused the valid collation document ${shown(args.collation)}: ${e.message}`, expected: 'the words sorted', actual: e.codeName ?? e.message });
          return;
        }
        throw e;
      }
      let at = 0;
      for (const group of groups) {
        const slice = got.slice(at, at + group.length);
        at += group.length;
        if (slice.length !== group.length || !group.every((w) => slice.includes(w))) {
          const order = groups.map((g) => (g.length > 1 ? `{${g.map(quoted).join(' = ')}}` : quoted(g[0] ?? ''))).join(' < ');
          ctx.fail({
            ...attributed,
            message: `under ${shown(args.collation)} the target sorts ${got.map(quoted).join(', ')}; ICU's rules give ${order}${args.because ? ` (${args.because})` : ''}`,
            expected: groups,
            actual: got,
          });
          return;
        }
      }
    });
  },
});
