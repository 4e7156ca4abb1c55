/**
 * FCD ("fast C or D") text: decomposing each character on its own already gives the canonical
 * order, so no reordering across characters is needed. With normalization off, ICU compares only
 * FCD text correctly and defines no result for other text (a precomposed `ô` followed by a
 * combining dot below, say).
 */
export function isFcd(s: string): boolean {
  let each = '';
  for (const c of s) each += c.normalize('NFD');
  return each === s.normalize('NFD');
}

/** The string itself when it is FCD, else its canonical decomposition (which is). */
export function fcd(s: string): string {
  return isFcd(s) ? s : s.normalize('NFD');
}
