/**
 * Sides of a protocol. Many specs bind two parties (a platform and the applications that call
 * it, a plugin and the compiler that runs it); a suite that judges both declares its sides in
 * `suite.yaml` (`sides:`), each requirement names the side it binds (`side:`), and a case judges
 * the side of its requirements. A run may judge one side only (`--side`, or `side:` in a target
 * profile's suite section): the other sides' cases do not run and their requirements are
 * reported not applicable, never untested.
 */
import { SpecgateError } from '../errors.js';
import type { CaseDef, LoadedSuite, Requirement, SourceLocation } from './model.js';
import { nearestNames } from './near-names.js';
import { formatLocation } from './loader/yaml-source.js';

/** The side a case judges: the one side its requirements bind (undefined when the suite has no sides). */
export function caseSide(suite: Pick<LoadedSuite, 'requirements'>, def: Pick<CaseDef, 'requirements'>): string | undefined {
  const byId = new Map(suite.requirements.map((r) => [r.id, r.side]));
  for (const id of def.requirements) {
    const side = byId.get(id);
    if (side !== undefined) return side;
  }
  return undefined;
}

/** The reason a requirement of a side this run does not judge carries: "this run judges the server side only". */
export function otherSideReason(judged: readonly string[]): string {
  const names = judged.length > 1 ? `${judged.slice(0, -1).join(', ')} and ${judged[judged.length - 1] ?? ''} sides` : `${judged[0] ?? ''} side`;
  return `this run judges the ${names} only`;
}

/** The `side` property of a suite result (JUnit testsuite properties) when the run judged only some sides. */
export function sideProperty(sides: readonly string[] | undefined): Record<string, string> {
  return sides ? { side: sides.join(',') } : {};
}

/** The cases of a suite that judge one of these sides (all of them when no side is chosen). */
export function casesOfSides<C extends Pick<CaseDef, 'requirements'>>(suite: Pick<LoadedSuite, 'requirements'>, cases: readonly C[], sides: readonly string[] | undefined): C[] {
  if (!sides) return [...cases];
  // one lookup table for the whole suite: a suite may have thousands of cases
  const byId = new Map(suite.requirements.map((r) => [r.id, r.side]));
  return cases.filter((c) => {
    const side = c.requirements.map((id) => byId.get(id)).find((x) => x !== undefined);
    return side === undefined || sides.includes(side);
  });
}

/** `server (the platform), client (an application)`: a suite's sides for messages. */
export function describeSides(suite: Pick<LoadedSuite, 'name' | 'sides'>): string {
  const entries = Object.entries(suite.sides ?? {});
  return entries.map(([name, s]) => `${name} (${s.description})`).join(', ');
}

/** How a profile section's `side:` is named in a problem with it: its place in the file and its path. */
export function sectionSideOrigin(suite: string, location: SourceLocation | undefined): { code: 'SG_CONFIG'; label: string; location?: SourceLocation } {
  return { code: 'SG_CONFIG', label: `${location ? `${formatLocation(location)}: ` : ''}the target profile's suites.${suite}.side`, ...(location ? { location } : {}) };
}

/**
 * Checks a side chosen for a suite (`--side`, or a profile's `side:`): the suite must declare
 * sides, and this must be one of them.
 * @param origin how the user chose it, for the message (`--side server`, `profile.yaml:4:5: side: server`).
 * @returns the problem, or undefined when the side is one of the suite's.
 */
export function unknownSide(suite: Pick<LoadedSuite, 'name' | 'sides'>, side: string, origin: { code: 'SG_USAGE' | 'SG_CONFIG'; label: string; location?: SourceLocation; hint?: string }): SpecgateError | undefined {
  const names = Object.keys(suite.sides ?? {});
  if (names.includes(side)) return undefined;
  const where = origin.location ? { ...origin.location } : {};
  if (!names.length)
    return new SpecgateError(origin.code, `${origin.label}: suite ${suite.name} declares no sides, so there is none to choose; run it without a side (with several suites, name the suite: --side <suite>=<side>)`, { suite: suite.name, side, ...where });
  const near = nearestNames(side, names, 1)[0];
  return new SpecgateError(
    origin.code,
    `${origin.label}: suite ${suite.name} has no side "${side}"${near ? ` (did you mean "${near}"?)` : ''}; its sides: ${describeSides(suite)}${origin.hint ?? ''}`,
    { suite: suite.name, side, sides: names, ...where },
  );
}

/**
 * Problems of a suite's sides, found at load: with sides declared, every requirement names one
 * of them and no case mixes requirements of two sides; without, no requirement names a side.
 */
export function requirementSideProblems(requirements: readonly Requirement[], sides: Record<string, unknown> | undefined, suiteFile: string): SpecgateError[] {
  const names = Object.keys(sides ?? {});
  const out: SpecgateError[] = [];
  for (const r of requirements) {
    const at = r.location ? `${r.location.file}:${r.location.line}:${r.location.column}` : r.id;
    if (!names.length) {
      if (r.side !== undefined) out.push(new SpecgateError('SG_SUITE_SCHEMA', `${at}: requirement ${r.id} names side "${r.side}", but ${suiteFile} declares no sides; add \`sides: { ${r.side}: { description: ... } }\` there or drop \`side:\``));
    } else if (r.side === undefined) {
      out.push(new SpecgateError('SG_SUITE_SCHEMA', `${at}: requirement ${r.id} names no side; this suite judges sides ${names.join(', ')} (${suiteFile}), so give it \`side:\` with one of them`));
    } else if (!names.includes(r.side)) {
      const near = nearestNames(r.side, names, 1)[0];
      out.push(new SpecgateError('SG_SUITE_SCHEMA', `${at}: requirement ${r.id} names side "${r.side}"${near ? ` (did you mean "${near}"?)` : ''}, which ${suiteFile} does not declare; its sides: ${names.join(', ')}`));
    }
  }
  return out;
}

/** A case whose requirements bind two sides or more: one case judges one side. */
export function mixedSideProblem(def: Pick<CaseDef, 'id' | 'requirements'>, requirements: ReadonlyMap<string, Requirement>, at: string): SpecgateError | undefined {
  const bySide = new Map<string, string[]>();
  for (const id of def.requirements) {
    const side = requirements.get(id)?.side;
    if (side !== undefined) bySide.set(side, [...(bySide.get(side) ?? []), id]);
  }
  if (bySide.size < 2) return undefined;
  const parts = [...bySide].map(([side, ids]) => `${side} (${ids.join(', ')})`);
  return new SpecgateError('SG_SUITE_SCHEMA', `${at}: case "${def.id}" covers requirements of ${bySide.size} sides: ${parts.join(' and ')}; a case judges one side, so split it into one case per side`);
}
