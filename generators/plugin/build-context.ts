import type { BuildContext, CandidateMessage, Candidates, EnumInfo } from './build-types.js';
import { wellKnownEntry } from './well-known.js';

/**
 * The files whose types `fileIndex` may use: itself, its direct imports, and whatever those
 * re-export through public imports (transitively). The compiler rejects a reference to a type of
 * a file that is imported only indirectly.
 */
export function visibleFiles(ctx: BuildContext, fileIndex: number): number[] {
  const file = ctx.files[fileIndex];
  if (!file) return [];
  const seen = new Set<number>([fileIndex]);
  const queue = [...file.deps];
  while (queue.length > 0) {
    const next = queue.shift();
    if (next === undefined || seen.has(next)) continue;
    seen.add(next);
    queue.push(...(ctx.files[next]?.publicDeps ?? []));
  }
  return [...seen].sort((a, b) => a - b);
}

/**
 * Types a field of `fileIndex` may refer to, in a stable order: the set's own, then the
 * messages of the well-known files it imports itself (their enums are left out).
 */
export function typeCandidates(ctx: BuildContext, fileIndex: number): Candidates {
  const proto3 = ctx.files[fileIndex]?.proto3 ?? false;
  const messages: CandidateMessage[] = [];
  const enums: EnumInfo[] = [];
  for (const i of visibleFiles(ctx, fileIndex)) {
    const file = ctx.files[i];
    if (!file) continue;
    messages.push(...file.allMessages);
    // proto3 messages may only use open (proto3) enums.
    enums.push(...file.allEnums.filter((e) => !proto3 || e.proto3));
  }
  for (const w of ctx.files[fileIndex]?.wellKnown ?? []) messages.push(...wellKnownEntry(w).messages);
  return { messages, enums };
}
