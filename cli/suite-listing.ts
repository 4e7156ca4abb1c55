import type { LoadedSuite, Requirement } from '../src/engine/model.js';
import type { SelectionFlags } from './selection-flags.js';

/** The flags of `specgate list`. */
export type ListFlags = { suite?: string[]; json?: boolean; vars?: boolean; trace?: boolean; passive?: boolean; cases?: string[] } & SelectionFlags;

/**
 * What `specgate list` (text or `--json`) shows of one suite, as data: derived from the loaded
 * suite and its module (list-loaded.ts), or read back as kept by an earlier listing of the same
 * files and code (list-cache.ts); one writer below prints both, so they print alike.
 */
export interface SuiteListing {
  name: string;
  title?: string;
  sides?: LoadedSuite['sides'];
  parts?: LoadedSuite['parts'];
  /** What `run --side` accepts, described (`describeSides`). */
  sidesText?: string;
  /** What `run --part` accepts, described (`describeParts`). */
  partsText?: string;
  /** The selection (`--part`, `--requirement`) shown, when there is one. */
  selection?: string;
  /** The counts after the suite's name. */
  counts: string;
  /** The requirements shown (every one, or those selected), as the catalog gives them, without their place in it. */
  requirements: Omit<Requirement, 'location'>[];
  /** The cases shown, with where each is written (`file:line`). */
  cases: { id: string; requirements: string[]; description?: string; tags?: string[]; file: string }[];
  /** The suite's typed checks. */
  checks: { name: string; description: string; judges: readonly string[] | 'case'; sets: readonly string[] }[];
  /** The requirements shown that no case covers and none excludes. */
  gaps: string[];
}

/** The listings as `list --json` prints them. */
function jsonOf(listings: readonly SuiteListing[]): string {
  return `${JSON.stringify(listings.map((s) => ({
    name: s.name,
    ...(s.sides ? { sides: s.sides } : {}),
    ...(s.parts ? { parts: s.parts } : {}),
    ...(s.selection !== undefined ? { selection: s.selection } : {}),
    requirements: s.requirements,
    cases: s.cases.map((c) => ({ id: c.id, requirements: c.requirements, description: c.description, tags: c.tags, file: c.file })),
  })), null, 2)}\n`;
}

/** One suite as `list` prints it: its counts, sides and parts, requirements with what covers them, cases, checks and gaps. */
function textOf(s: SuiteListing): string {
  const lines = [`${s.name}${s.title ? ` — ${s.title}` : ''}: ${s.counts}`];
  // what `run --side <name>` and `run --part <name>` accept for this suite
  if (s.sidesText !== undefined) lines.push(`  sides (run --side <name>): ${s.sidesText}`);
  if (s.partsText !== undefined) lines.push(`  parts (run --part <name>): ${s.partsText}`);
  const byReq = new Map<string, string[]>();
  for (const c of s.cases)
    for (const r of c.requirements) {
      const ids = byReq.get(r);
      if (ids) ids.push(c.id);
      else byReq.set(r, [c.id]);
    }
  lines.push('  requirements:');
  for (const r of s.requirements) {
    const cover = r.excluded ? `excluded: ${r.excluded}` : (byReq.get(r.id) ?? []).join(', ') || 'NOT COVERED';
    lines.push(`    ${r.id} (${r.level}${r.side !== undefined ? `, ${r.side} side` : ''}) — ${cover}`);
  }
  lines.push('  cases:');
  for (const c of s.cases) lines.push(`    ${c.id} [${c.requirements.join(', ')}]${c.tags?.length ? ` {${c.tags.join(', ')}}` : ''}  ${c.file}`);
  if (s.checks.length) lines.push('  checks:');
  for (const c of s.checks)
    lines.push(`    ${s.name}.${c.name} — ${c.description}; judges ${c.judges === 'case' ? "the case's requirements" : c.judges.join(', ')}${c.sets.length ? `; sets ${c.sets.join(', ')}` : ''}`);
  if (s.gaps.length) lines.push(`  ${s.gaps.length} requirement(s) have no case and no exclusion: ${s.gaps.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/** Prints the listings as `list` does (`json`: as `list --json`). */
export function writeListings(listings: readonly SuiteListing[], json: boolean, out: NodeJS.WritableStream): void {
  if (json) out.write(jsonOf(listings));
  else for (const s of listings) out.write(textOf(s));
}
