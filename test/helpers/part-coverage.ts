import type { LoadedSuite } from '../../src/engine/model.js';
import { matchesPattern, partRequirements } from '../../src/engine/selection.js';

/**
 * What a suite's parts (`suite.yaml` `parts:`) leave out, read from the suite files alone. A
 * requirement may stay outside every part only by one of two rules a reader can check:
 *
 * - it is excluded (`excluded:`): no case judges it, so a selection changes nothing for it;
 * - its side is one no part reaches (the client side of an API whose parts are the service's
 *   topics), and that side's description names the requirements it holds as ID globs
 *   (`(OAUTH-CLIENT-*)`), which match exactly the requirements of that side: `--side` selects
 *   them, and `specgate list` shows the globs next to the parts.
 */
export type PartSuite = Pick<LoadedSuite, 'requirements' | 'parts' | 'sides'>;

/** The IDs some part of the suite holds. */
export function idsInParts(suite: PartSuite): Set<string> {
  return new Set(Object.keys(suite.parts ?? {}).flatMap((p) => partRequirements(suite, p)));
}

/** The sides of which no requirement is in a part, in the order the suite declares them. */
export function sidesOutsideParts(suite: PartSuite): string[] {
  const inParts = idsInParts(suite);
  const reached = new Set(suite.requirements.filter((r) => inParts.has(r.id)).map((r) => r.side));
  return Object.keys(suite.sides ?? {}).filter((s) => !reached.has(s));
}

/** The ID globs a side's description names (`... (EVENTS-CLIENT-*)` -> `EVENTS-CLIENT-*`). */
export function sideGlobs(description: string): string[] {
  return description.match(/\b[A-Z][A-Z0-9]*-[A-Z0-9*?-]*/g) ?? [];
}

/**
 * Requirements outside every part that neither rule lets out, by ID: a requirement added
 * without a part shows here.
 */
export function requirementsWithoutPart(suite: PartSuite): string[] {
  const inParts = idsInParts(suite);
  const outside = new Set(sidesOutsideParts(suite));
  return suite.requirements.filter((r) => !inParts.has(r.id) && r.excluded === undefined && !(r.side !== undefined && outside.has(r.side))).map((r) => r.id);
}

/**
 * Sides outside the parts whose description does not name exactly their requirements: for
 * each, the IDs its globs miss and the IDs of other sides they match.
 */
export function undocumentedSides(suite: PartSuite): { side: string; missed: string[]; foreign: string[] }[] {
  const out: { side: string; missed: string[]; foreign: string[] }[] = [];
  for (const side of sidesOutsideParts(suite)) {
    const globs = sideGlobs(suite.sides?.[side]?.description ?? '');
    const named = (id: string): boolean => globs.some((g) => matchesPattern(g, id));
    const missed = suite.requirements.filter((r) => r.side === side && !named(r.id)).map((r) => r.id);
    const foreign = suite.requirements.filter((r) => r.side !== side && named(r.id)).map((r) => r.id);
    if (missed.length || foreign.length || !globs.length) out.push({ side, missed, foreign });
  }
  return out;
}

/**
 * The "Parts" paragraph of a suite's README, derived from its files: each part with its globs,
 * the sides left to `--side`, and the excluded requirements outside every part.
 */
export function partsParagraph(suite: PartSuite): string {
  const code = (s: string): string => `\`${s}\``;
  const parts = Object.entries(suite.parts ?? {}).map(([name, p]) => `${code(name)} (${p.requirements.map(code).join(', ')})`);
  const lines = [`**Parts** (\`--part <name>\`): ${parts.join('; ')}.`];
  for (const side of sidesOutsideParts(suite))
    lines.push(`The ${side} side (${sideGlobs(suite.sides?.[side]?.description ?? '').map(code).join(', ')}) is in no part: \`--side ${side}\` selects it.`);
  const inParts = idsInParts(suite);
  const outside = new Set(sidesOutsideParts(suite));
  const excluded = suite.requirements.filter((r) => !inParts.has(r.id) && r.excluded !== undefined && !(r.side !== undefined && outside.has(r.side)));
  if (excluded.length) lines.push(`Excluded, in no part: ${excluded.map((r) => code(r.id)).join(', ')}.`);
  return lines.join(' ');
}
