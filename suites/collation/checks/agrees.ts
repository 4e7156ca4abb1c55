import fc from 'fast-check';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import { SpecgateError } from '../../../src/errors.js';
import type { FailureInput } from '../../../src/engine/suite-module.js';
import { collatorFor, fcd, prepareComparator } from '../../../reference/collation/comparator/index.js';
import { validCollationDocument } from '../../../generators/collation/collation-document.js';
import { collationString, longDigitRun, nearPair } from '../../../generators/collation/collation-string.js';
import { CollationRefused, type CollationPort } from '../ports/types.js';
import { quoted, shown, withPort } from './port.js';

/** Which strings the property generates. */
type StringKind = 'mixed' | 'near-pairs' | 'long-digits';

interface AgreesArgs {
  /** The collation document judged; absent with `generated: true`. */
  collation?: Record<string, unknown>;
  /** Generate the collation documents too (valid ones only). */
  generated?: boolean;
  strings: StringKind;
  runs?: number;
  requirement?: string;
}

/** Lists of 2..12 strings of one kind. */
function lists(kind: StringKind): fc.Arbitrary<string[]> {
  switch (kind) {
    case 'mixed':
      return fc.array(collationString(), { minLength: 2, maxLength: 12 });
    case 'near-pairs':
      return fc.array(nearPair(), { minLength: 1, maxLength: 6 }).map((pairs) => pairs.flat());
    case 'long-digits':
      return fc.array(fc.tuple(fc.constantFrom('', 'a', 'b'), longDigitRun, fc.constantFrom('', 'x', '1')).map(([a, d, z]) => a + d + z), { minLength: 2, maxLength: 6 });
  }
}

/**
 * `collation.agrees`: generated strings sorted and matched by the target under a collation
 * document, compared with the reference comparator (ICU's rules). A disagreement shrinks to the
 * smallest pair of strings the target orders or matches differently, with the seed to replay it.
 */
export const agreesCheck = defineCheck<AgreesArgs>({
  description: 'generated strings sorted and matched on the target under a collation, against the reference comparator; shrinks to the smallest disagreeing pair',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['strings'],
    properties: {
      collation: { type: 'object', description: 'the collation document judged' },
      generated: { type: 'boolean', description: 'generate valid collation documents too' },
      strings: { enum: ['mixed', 'near-pairs', 'long-digits'], description: 'which strings to generate' },
      runs: { type: 'integer', minimum: 1, description: 'property runs (default: the run\'s --runs)' },
      requirement: { type: 'string', pattern: '^COLL-[A-Z0-9-]+$', description: 'the requirement judged (default: all of the case)' },
    },
  },
  judges: 'case',
  async run(ctx, args) {
    const fixed = args.collation;
    if (!fixed && !args.generated) throw new SpecgateError('SG_CONFIG', 'collation.agrees needs `collation:` (the document judged) or `generated: true`');
    const documents = fixed ? fc.constant(fixed) : validCollationDocument();
    const attributed = args.requirement ? { requirement: args.requirement } : {};
    const label = `${args.strings} strings under ${fixed ? shown(fixed) : 'generated collations'}`;
    await prepareComparator();
    // a generated list judges the collation only when the collation orders some pair of it otherwise than its baseline does
    let exercised = 0;
    await withPort(ctx, async (port) => {
      await ctx.property(
        fc.tuple(documents, lists(args.strings)),
        async ([collation, strings]) => {
          const found = await disagreement(port, collation, strings, ctx.signal);
          if (found) return { ...attributed, ...found };
          if (tellsApart(collation, strings)) exercised++;
          return undefined;
        },
        { label, ...(args.runs ? { runs: args.runs } : {}) },
      );
    });
    for (const requirement of args.requirement ? [args.requirement] : ctx.requirements) {
      if (exercised > 0) ctx.observed(requirement, exercised);
      else ctx.noEvidence(requirement, `no generated list (${label}) held two strings the collation orders otherwise than ${baselineShown(fixed)} does`);
    }
  },
});

/**
 * The collation a document is judged against to see whether generated strings exercise it: the
 * same locale without the other fields (what the fields change), or, for a bare locale, the
 * root collation (what the locale's rules change); for `simple`, the root collation too.
 */
function baseline(collation: Record<string, unknown>): Record<string, unknown> {
  const locale = collation.locale;
  const bare = Object.keys(collation).every((k) => k === 'locale');
  return bare || locale === 'simple' || typeof locale !== 'string' ? { locale: 'root' } : { locale };
}

function baselineShown(fixed: Record<string, unknown> | undefined): string {
  return fixed ? shown(baseline(fixed)) : 'each document\'s locale alone (or the root collation)';
}

/** Whether some pair of the strings compares otherwise under the collation than under its baseline. */
export function tellsApart(collation: Record<string, unknown>, strings: readonly string[]): boolean {
  const model = collatorFor(collation);
  const base = collatorFor(baseline(collation));
  for (let i = 0; i < strings.length; i++)
    for (let j = i + 1; j < strings.length; j++) {
      const a = strings[i] ?? '';
      const b = strings[j] ?? '';
      if (Math.sign(model.compare(a, b)) !== Math.sign(base.compare(a, b))) return true;
    }
  return false;
}

/** The first way the target's answers disagree with the reference comparator, or undefined. */
export async function disagreement(port: CollationPort, collation: Record<string, unknown>, generated: readonly string[], signal: AbortSignal): Promise<FailureInput | undefined> {
  const model = collatorFor(collation);
  // with normalization off ICU defines results only for FCD text: other text is judged decomposed
  const strings = model.collation !== 'simple' && !model.collation.normalization ? generated.map(fcd) : generated;
  let sorted: string[];
  try {
    sorted = await port.sort(strings, collation, signal);
  } catch (e) {
    if (e instanceof CollationRefused) return { message: `the target refused a valid collation document ${shown(collation)}: ${e.message}`, expected: 'the strings sorted', actual: e.codeName ?? e.message };
    throw e;
  }
  if (!sameStrings(sorted, strings)) return { message: `sorting under ${shown(collation)} returned other strings than were stored`, expected: [...strings].sort(), actual: sorted };
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i] ?? '';
    const b = sorted[i + 1] ?? '';
    if (model.compare(a, b) > 0)
      return {
        message: `under ${shown(collation)} the target sorts ${quoted(a)} before ${quoted(b)}; by ICU's rules ${quoted(b)} comes first`,
        expected: [b, a],
        actual: [a, b],
      };
  }
  const probe = strings[0] ?? '';
  const want = strings.filter((s) => model.equals(s, probe));
  let got: string[];
  try {
    got = await port.matches(strings, probe, collation, signal);
  } catch (e) {
    if (e instanceof CollationRefused) return { message: `the target refused an equality match under ${shown(collation)}: ${e.message}`, expected: want, actual: e.codeName ?? e.message };
    throw e;
  }
  if (!sameStrings(got, want)) {
    const extra = got.find((s) => !want.includes(s));
    const missing = want.find((s) => !got.includes(s));
    const which = extra !== undefined ? `${quoted(extra)} matched ${quoted(probe)} although ICU's rules tell them apart` : `${quoted(missing ?? '')} did not match ${quoted(probe)} although ICU's rules find them equal`;
    return { message: `under ${shown(collation)} ${which}`, expected: want, actual: got };
  }
  return undefined;
}

/** The same strings, counted with their repeats, in any order. */
function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((s, i) => s === y[i]);
}

