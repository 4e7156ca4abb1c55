/**
 * Names near a misspelt one, for "did you mean" in messages: the loader's variable and
 * operation checks and the command line's suite and case selection use the same rule.
 */

/** Edit distance (insertions, deletions, substitutions) between two strings. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_x, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/**
 * Up to `max` known names nearest to `wanted`, nearest first: those within a third of the longer
 * name's length, or containing it (or contained in it), so unrelated names are never offered.
 */
export function nearestNames(wanted: string, known: readonly string[], max = 3): string[] {
  const w = wanted.toLowerCase();
  return [...new Set(known)]
    .map((name) => {
      const n = name.toLowerCase();
      const d = distance(w, n);
      const close = d <= Math.max(2, Math.floor(Math.max(w.length, n.length) / 3)) || (w.length >= 3 && (n.includes(w) || w.includes(n)));
      return { name, d, close };
    })
    .filter((x) => x.close)
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((x) => x.name);
}
