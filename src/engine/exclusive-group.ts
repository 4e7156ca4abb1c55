import type { CaseDef } from './model.js';

// A module of its own, apart from the runtime: what plans a run without running it (sharding)
// asks it too.

/** The tag of a case that runs alone: it touches state every other case may share. */
export const EXCLUSIVE = 'exclusive';

/** The head of a tag naming a case's exclusive group: `exclusive:<group>`. */
const GROUP_HEAD = 'exclusive:';

/**
 * The group a case is exclusive within (`tags: ["exclusive:<group>"]`), or undefined. A case of a
 * group touches state only the cases of its group share: it runs after the cases that run beside
 * any other (as an `exclusive` case does), never beside another case of its group, and beside
 * the cases of other groups, which touch none of its state. The first such tag names the group.
 */
export function exclusiveGroup(def: CaseDef): string | undefined {
  const { tags } = def;
  if (tags === undefined) return undefined;
  for (const t of tags) if (t.length > GROUP_HEAD.length && t.startsWith(GROUP_HEAD)) return t.slice(GROUP_HEAD.length);
  return undefined;
}

/** Whether a case runs alone, beside no other case: tagged `exclusive`. */
export function isExclusive(def: CaseDef): boolean {
  return def.tags !== undefined && def.tags.includes(EXCLUSIVE);
}
