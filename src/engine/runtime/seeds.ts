/** FNV-1a over text: a stable 31-bit seed per (run seed, suite, case, call), so one case replays alone. */
export function deriveSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  const s = parts.join('\u0000');
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & 0x7fffffff;
}

/** A fresh run seed when the user gives none. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}
