import { defineCheck } from '../../../src/engine/checks/contract.js';
import { CollationRefused } from '../ports/types.js';
import { quoted, shown, withPort } from './port.js';

interface MatchesArgs {
  collation: Record<string, unknown>;
  probe: string;
  /** The stored strings that must equal the probe. */
  equal: string[];
  /** The stored strings that must not. */
  unequal: string[];
  requirement?: string;
  because?: string;
}

/** `collation.matches`: an equality match on the target under a collation: exactly the strings ICU finds equal to the probe. */
export const matchesCheck = defineCheck<MatchesArgs>({
  description: 'an equality match under a collation: exactly the stored strings ICU finds equal to the probe',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['collation', 'probe', 'equal', 'unequal'],
    properties: {
      collation: { type: 'object' },
      probe: { type: 'string' },
      equal: { type: 'array', items: { type: 'string' } },
      unequal: { type: 'array', items: { type: 'string' } },
      requirement: { type: 'string', pattern: '^COLL-[A-Z0-9-]+$' },
      because: { type: 'string' },
    },
  },
  judges: 'case',
  async run(ctx, args) {
    const attributed = args.requirement ? { requirement: args.requirement } : {};
    const stored = [...args.unequal, ...args.equal];
    await withPort(ctx, async (port) => {
      let got: string[];
      try {
        got = await port.matches(stored, args.probe, args.collation, ctx.signal);
      } catch (e) {
        if (e instanceof CollationRefused) {
          ctx.fail({ ...attributed, message: `the target refused the valid collation document ${shown(args.collation)}: ${e.message}`, expected: args.equal, actual: e.codeName ?? e.message });
          return;
        }
        throw e;
      }
      const missing = args.equal.filter((s) => !got.includes(s));
      const extra = got.filter((s) => !args.equal.includes(s));
      if (missing.length || extra.length) {
        const parts = [
          ...(missing.length ? [`${missing.map(quoted).join(', ')} did not match`] : []),
          ...(extra.length ? [`${extra.map(quoted).join(', ')} matched`] : []),
        ];
        ctx.fail({ ...attributed, message: `matching ${quoted(args.probe)} under ${shown(args.collation)}: ${parts.join('; ')}${args.because ? ` (${args.because})` : ''}`, expected: args.equal, actual: got });
      }
    });
  },
});
