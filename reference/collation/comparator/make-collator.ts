import type { Collation, Collator, ResolvedCollation } from '../types.js';
import { compareCodePoints } from './engine-simple.js';
import { makeIntlCollator } from './engine-intl.js';
import { makeIcu4xCompare } from './engine-icu4x.js';
import { makeIntlFirstCompare } from './intl-first.js';
import { makeSecondaryDirectionCompare } from './engine-secondary-direction.js';
import { localeDefaults } from './icu-locales.js';
import { parseCollation } from './parse.js';

/** Which engine compares under a collation (the table is in index.ts). */
export type EngineName = 'simple' | 'intl' | 'icu4x' | 'secondary-direction+intl' | 'secondary-direction+icu4x';

interface Built {
  readonly compare: (a: string, b: string) => number;
  readonly engine: EngineName;
}

function buildEngine(c: ResolvedCollation): Built {
  const intl = makeIntlCollator(c);
  if (intl !== undefined) return { compare: intl.compare, engine: 'intl' };
  const full = makeIcu4xCompare(c);
  const spaceShifted = c.alternate === 'shifted' && c.maxVariable === 'space';
  const tertiary = spaceShifted ? makeIcu4xCompare({ ...c, strength: 3, caseLevel: false }) : undefined;
  // Intl decides the levels it shares with the document; ICU4X answers the rest (intl-first.ts)
  const primary = (): ((a: string, b: string) => number) => makeIcu4xCompare({ ...c, strength: 1, caseLevel: false });
  const compare = makeIntlFirstCompare(c, { full, primary, ...(tertiary ? { tertiary } : {}) }) ?? full;
  return { compare, engine: 'icu4x' };
}

function build(collation: Collation): Built {
  if (collation === 'simple') return { compare: compareCodePoints, engine: 'simple' };
  const ownBackwards = localeDefaults(collation.locale)?.backwards ?? false;
  if (collation.backwards === ownBackwards || collation.strength === 1) {
    // At strength 1 there is no secondary level for the direction to act on.
    return buildEngine({ ...collation, backwards: ownBackwards });
  }
  const full = buildEngine({ ...collation, backwards: ownBackwards });
  const primary = buildEngine({ ...collation, backwards: ownBackwards, strength: 1, caseLevel: false, caseFirst: 'off' });
  const secondary = buildEngine({ ...collation, backwards: ownBackwards, strength: 2, caseLevel: false, caseFirst: 'off' });
  return {
    compare: makeSecondaryDirectionCompare({
      primary: primary.compare,
      secondary: secondary.compare,
      full: full.compare,
      backwards: collation.backwards,
    }),
    engine: full.engine === 'intl' ? 'secondary-direction+intl' : 'secondary-direction+icu4x',
  };
}

/** A stable cache key: the resolved fields in a fixed order. */
function keyOf(collation: Collation): string {
  if (collation === 'simple') return 'simple';
  const c = collation;
  return [c.locale, c.strength, c.caseLevel, c.caseFirst, c.numericOrdering, c.alternate, c.maxVariable, c.normalization, c.backwards].join('|');
}

class EngineCollator implements Collator {
  readonly collation: Collation;
  readonly engine: EngineName;
  readonly compare: (a: string, b: string) => number;
  readonly equals: (a: string, b: string) => boolean;

  constructor(collation: Collation, built: Built) {
    this.collation = collation;
    this.engine = built.engine;
    const compare = built.compare;
    this.compare = compare;
    this.equals = (a, b) => compare(a, b) === 0;
  }
}

const cache = new Map<string, EngineCollator>();

/**
 * A collator for a resolved collation (spec part F). The collation is trusted: use parseCollation
 * (or collatorFor) on anything a user wrote. Collators are cached by resolved document.
 */
export function makeCollator(collation: Collation): Collator & { readonly engine: EngineName } {
  const key = keyOf(collation);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const made = new EngineCollator(collation, build(collation));
  cache.set(key, made);
  return made;
}

/** Parses a collation document as a user writes it and returns its (cached) collator. */
export function collatorFor(doc: unknown): Collator & { readonly engine: EngineName } {
  return makeCollator(parseCollation(doc));
}
