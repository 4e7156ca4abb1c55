import type { Document } from 'yaml';
import { yamlPackage } from '../../yaml-package.js';

/**
 * What YAML aliases may add to a file. An alias stands for the whole value its anchor names, so
 * nine anchors of nine aliases each (a "billion laughs") stand for a billion values in a dozen
 * lines; the parser shares one copy, but everything that walks the data (schema checks, case
 * expansion, the parse cache, redaction) pays for each. The YAML library's own alias count
 * estimates this and misses wide bombs (one long list aliased a few dozen times, then that list
 * of lists again), so the expansion is measured here, once per node, before the data is built.
 */

/** Values aliases may add beyond a file's own, whatever its size (a file may also double itself). */
export const ALIAS_ALLOWANCE = 100_000;

/** The alias where a file's expansion goes too far: its offset in the text, its name, and why. */
export interface AliasProblem {
  offset: number;
  source: string;
  /** `loop`: the alias is inside the value it names (it never ends); `expansion`: too many values. */
  kind: 'loop' | 'expansion';
  /** Values aliases stand for, up to and including this one. */
  added: number;
  /** Values the file holds as written. */
  written: number;
  /** The most aliases may add in this file. */
  limit: number;
}

interface Frame {
  node: object;
  kids: unknown[];
  next: number;
  size: number;
}

/**
 * The first alias past which the document stands for more than `max(ALIAS_ALLOWANCE, written)`
 * values beyond what it holds as written, or an alias inside its own anchor's value; undefined
 * when the aliases are harmless. Walks the tree once, without recursion.
 */
export function aliasProblem(doc: Document): AliasProblem | undefined {
  // a document to walk means yaml-source.ts has loaded the package already
  const { isAlias, isCollection, isNode, isPair } = yamlPackage();
  const root: unknown = doc.contents;
  if (!isNode(root)) return undefined;
  const anchors = new Map<string, object>();
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  // cumulative values added, at each alias in document order (to name the alias where the limit is passed)
  const at: [number, number, string][] = [];
  let added = 0;
  let written = 0;
  const stack: Frame[] = [];
  const enter = (node: unknown, parent: Frame | undefined): AliasProblem | undefined => {
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      const offset = node.range?.[0] ?? 0;
      if (target && open.has(target)) return { offset, source: node.source, kind: 'loop', added, written, limit: ALIAS_ALLOWANCE };
      const size = target ? (sizes.get(target) ?? 1) : 1;
      added += size;
      at.push([offset, added, node.source]);
      if (parent) parent.size += size;
      return undefined;
    }
    if (isPair(node)) {
      stack.push({ node, kids: [node.key, node.value], next: 0, size: 0 });
      return undefined;
    }
    if (!isNode(node)) return undefined;
    written++;
    if (node.anchor) anchors.set(node.anchor, node);
    if (isCollection(node)) {
      open.add(node);
      stack.push({ node, kids: node.items, next: 0, size: 1 });
    } else {
      sizes.set(node, 1);
      if (parent) parent.size += 1;
    }
    return undefined;
  };
  const first = enter(root, undefined);
  if (first) return first;
  if (!isCollection(root)) return undefined;
  while (stack.length) {
    const top = stack[stack.length - 1] as Frame;
    if (top.next < top.kids.length) {
      const problem = enter(top.kids[top.next++], top);
      if (problem) return problem;
      continue;
    }
    stack.pop();
    open.delete(top.node);
    sizes.set(top.node, top.size);
    const parent = stack[stack.length - 1];
    if (parent) parent.size += top.size;
  }
  const limit = Math.max(ALIAS_ALLOWANCE, written);
  if (added <= limit) return undefined;
  const past = at.find(([, sum]) => sum > limit) ?? at[at.length - 1];
  return past ? { offset: past[0], source: past[2], kind: 'expansion', added, written, limit } : undefined;
}

/** The sentence after `file:line:column: ` for a problem `aliasProblem` found. */
export function aliasMessage(p: AliasProblem): string {
  if (p.kind === 'loop') return `too many aliases: *${p.source} stands for the value it is written in, so it never ends; alias a value from outside it`;
  const total = Number.isFinite(p.added) && p.added < 1e15 ? `${Math.round(p.added)}` : 'more than a million billion';
  return `too many aliases: with *${p.source} the aliases stand for ${total} values, more than the ${p.limit} they may add (a YAML "billion laughs"); write the values out or alias fewer`;
}
