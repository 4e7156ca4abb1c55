/**
 * The `simple` collation: binary comparison of Unicode code points (spec part F: "the value
 * `simple` selects simple binary comparison").
 *
 * JavaScript's `<` compares UTF-16 code units, which puts U+E000..U+FFFF after supplementary
 * characters (their surrogates are D800..DFFF). Code point order is restored at the first differing
 * unit by moving surrogates above every other BMP unit; no allocation, one pass.
 */
function fixup(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) return fixup(x) - fixup(y);
      return x - y;
    }
  }
  return a.length - b.length;
}
