import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LearnedSecrets, MIN_IN_TEXT, masked, spellings } from '../../src/targets/learned-secrets.js';
import { escapeRegExp } from '../../src/targets/secret-forms.js';

const MASK = '***';
const BLOCK = 256;

/**
 * The masking a scan must give, written the plain way: every spelling of every value in blocks
 * of 256, each block one pattern of its spellings (longest first) matched left to right, the
 * matches of all blocks joined where they overlap (by the scan's own `masked`, as the spellings
 * are its own `spellings`); then the pieces at a cut mark, which the scan leaves to the same code
 * (so a text without a mark is compared here).
 */
class PlainMasker {
  private readonly blocks: string[][] = [];
  private readonly values = new Set<string>();

  add(value: string): void {
    if (value.length < 4 || this.values.has(value)) return;
    this.values.add(value);
    if (value.length < MIN_IN_TEXT) return;
    let block = this.blocks[this.blocks.length - 1];
    if (!block || block.length >= BLOCK) this.blocks.push((block = []));
    block.push(...spellings(value));
  }

  mask(s: string): string {
    const spans: [number, number][] = [];
    for (const forms of this.blocks) {
      const pattern = new RegExp([...forms].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
      for (let m = pattern.exec(s); m !== null; m = pattern.exec(s)) spans.push([m.index, m.index + m[0].length]);
    }
    // the spans are joined and masked by the code the scan uses too: what differs is how they are found
    return spans.length === 0 ? s : masked(s, spans, MASK);
  }
}

// a small alphabet, so that values overlap, contain one another and share their first characters
// (no lone surrogate: a value is percent-encoded when learned; the texts around hold them)
const small = fc.string({ unit: fc.constantFrom('a', 'b', 'A', '1', '-', ' ', '/', '"', 'é', '😀'), minLength: 4, maxLength: 14 });
const token = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 8, maxLength: 40 });
const value = fc.oneof(small, token);

/** A text made of learned values (whole, cut, two run together) and other text, without a cut mark. */
function textOf(values: readonly string[]): fc.Arbitrary<string> {
  const piece = values.length === 0 ? fc.string() : fc.oneof(
    fc.constantFrom(...values),
    fc.constantFrom(...values).map((v) => encodeURIComponent(v)),
    fc.constantFrom(...values).map((v) => JSON.stringify(v)),
    fc.tuple(fc.constantFrom(...values), fc.nat(), fc.nat()).map(([v, a, b]) => v.slice(Math.min(a, b) % (v.length + 1), Math.max(a, b) % (v.length + 1) + 4)),
    fc.tuple(fc.constantFrom(...values), fc.constantFrom(...values), fc.nat()).map(([v, w, k]) => v + w.slice(k % Math.max(1, w.length))),
    small,
    fc.string({ unit: 'binary', maxLength: 6 }),
  );
  return fc.array(piece, { maxLength: 12 }).map((ps) => ps.join('').replace(/[.…]/g, ','));
}

describe('LearnedSecrets scan', () => {
  it('masks a text as the block patterns did, for varied values and texts', () => {
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 12 }).chain((values) => fc.tuple(fc.constant(values), fc.array(textOf(values), { minLength: 1, maxLength: 4 }), fc.nat({ max: values.length }))),
        ([values, texts, early]) => {
          const scan = new LearnedSecrets(4);
          const plain = new PlainMasker();
          // some values learned, a text masked (so that later values join a scan already used), then the rest
          for (const v of values.slice(0, early)) learn(v, scan, plain);
          expect(scan.mask(texts[0] as string, MASK)).toBe(plain.mask(texts[0] as string));
          for (const v of values.slice(early)) learn(v, scan, plain);
          for (const t of texts) expect(scan.mask(t, MASK)).toBe(plain.mask(t));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('masks as the block patterns did across blocks, where a match of one block hides no match of another', () => {
    fc.assert(
      fc.property(
        fc.array(small, { minLength: 2, maxLength: 6 }).chain((values) => fc.tuple(fc.constant(values), textOf(values))),
        ([values, t]) => {
          const scan = new LearnedSecrets(4);
          const plain = new PlainMasker();
          // each value in a block of its own, behind a block's worth of fillers
          values.forEach((v, k) => {
            for (let i = 0; i < 300; i++) learn(`filler-${k}-${i}-zzzz`, scan, plain);
            learn(v, scan, plain);
          });
          expect(scan.mask(t, MASK)).toBe(plain.mask(t));
        },
      ),
      { numRuns: 40 },
    );
    const scan = new LearnedSecrets(4);
    scan.add('abcdefgh');
    for (let i = 0; i < 300; i++) scan.add(`filler-${i}-zzzz`);
    scan.add('cdefghijklmn');
    expect(scan.mask('abcdefghijklmn', MASK)).toBe(MASK);
  });

  it('masks a huge body, with values at its very start and end, as the block patterns did', () => {
    const scan = new LearnedSecrets(4);
    const plain = new PlainMasker();
    const values = Array.from({ length: 600 }, (_, i) => `tok_${i.toString(36).padStart(6, '0')}_${'x'.repeat(i % 20)}`);
    for (const v of values) learn(v, scan, plain);
    const body = `${values[5]}${JSON.stringify({ items: Array.from({ length: 20000 }, (_, i) => ({ id: i, t: i % 97 === 0 ? values[i % 600] : `tok_${i}` })) })}${values[599]}`;
    const masked = scan.mask(body, MASK);
    expect(masked).toBe(plain.mask(body));
    expect(masked.startsWith(MASK)).toBe(true);
    expect(masked.endsWith(MASK)).toBe(true);
  });

  it('masks within a block as its pattern did: a longer value starting inside a match stays hidden behind it', () => {
    const scan = new LearnedSecrets(4);
    scan.add('abcdefgh');
    scan.add('cdefghijklmn');
    // one pattern: the match at 0 hides the value starting at 2, whose tail stays
    expect(scan.mask('abcdefghijklmn', MASK)).toBe(`${MASK}ijklmn`);
    expect(scan.mask('xxcdefghijklmn', MASK)).toBe(`xx${MASK}`);
  });
});

function learn(v: string, scan: LearnedSecrets, plain: PlainMasker): void {
  scan.add(v);
  plain.add(v);
}
