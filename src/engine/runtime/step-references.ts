import { referencedVariables } from '../expressions.js';
import type { Step } from '../model.js';

const cache = new WeakMap<Step, readonly string[]>();

/**
 * The variables a step's own text references (`${device_code}`, `${interval + 5}`): in its
 * request, process or query, its `with:` arguments, its expectation and its repeat. Computed once
 * per step; a property case runs the same steps many times.
 */
export function stepReferences(step: Step): readonly string[] {
  let names = cache.get(step);
  if (!names) {
    const parts: unknown[] = [];
    if ('request' in step) parts.push(step.request);
    if ('exec' in step) parts.push(step.exec);
    if ('query' in step) parts.push(step.query);
    if ('command' in step) parts.push(step.command);
    if ('agent' in step || 'check' in step) parts.push(step.with);
    if ('expect' in step) parts.push(step.expect);
    if ('wait' in step) parts.push(step.wait);
    if ('set' in step) parts.push(step.set);
    parts.push(step.repeat);
    names = referencesIn(parts);
    cache.set(step, names);
  }
  return names;
}

/** The variables referenced anywhere inside a written value (strings of objects and lists included). */
export function referencesIn(value: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      for (const n of safeReferences(v)) out.add(n);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return [...out];
}

/** A written text the loader let through parses; should one not, it simply references nothing. */
function safeReferences(s: string): string[] {
  try {
    return referencedVariables(s);
  } catch {
    return [];
  }
}
