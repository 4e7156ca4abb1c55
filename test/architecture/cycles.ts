import { importsOf, type ImportEdge } from './import-graph.js';

/** Which edges count when looking for cycles. */
export type EdgeFilter = (edge: ImportEdge) => boolean;

/** Adjacency lists over `files` (edges to files outside the set are dropped). */
export function graphOf(files: readonly string[], keep: EdgeFilter): Map<string, string[]> {
  const inSet = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const next = [...new Set(importsOf(f).filter((e) => keep(e) && inSet.has(e.to)).map((e) => e.to))].sort();
    graph.set(f, next);
  }
  return graph;
}

/** Strongly connected components with more than one file, or one file importing itself (Tarjan). */
export function tangles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return out.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** The shortest path from `start` back to itself inside `members` (breadth first). */
function shortestLoop(graph: Map<string, string[]>, members: Set<string>, start: string): string[] | undefined {
  const prev = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i] as string;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = prev.get(v); p !== undefined; p = prev.get(p)) path.unshift(p);
        if (path[0] !== start) path.unshift(start);
        return [...path, start];
      }
      if (!prev.has(w) && w !== start) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return undefined;
}

/**
 * Each import cycle as a readable path `a.ts -> b.ts -> a.ts`: for every tangle, the shortest
 * loop through each of its files, each loop listed once (rotated to start at its smallest file).
 */
export function cyclePaths(graph: Map<string, string[]>): string[] {
  const seen = new Set<string>();
  for (const component of tangles(graph)) {
    const members = new Set(component);
    for (const start of component) {
      const loop = shortestLoop(graph, members, start);
      if (!loop) continue;
      const ring = loop.slice(0, -1);
      const first = ring.indexOf([...ring].sort()[0] as string);
      const rotated = [...ring.slice(first), ...ring.slice(0, first)];
      seen.add([...rotated, rotated[0]].join(' -> '));
    }
  }
  return [...seen].sort();
}
