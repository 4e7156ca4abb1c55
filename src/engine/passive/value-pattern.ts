import { deepEqual } from '../../checks/matchers.js';
import { patternParts, stringify } from '../expressions.js';

/** Variables known so far while a case is matched against a recording: name -> value. */
export type Bindings = Readonly<Record<string, unknown>>;

/**
 * What a part of a step's value stands for, given the variables known so far: literal text,
 * a variable still unknown (the recorded value binds it), or an expression that reads unknown
 * variables without being one (any value fits it, and it binds nothing).
 */
type Piece = { text: string } | { bind: string } | { any: true };

function pieces(template: string, vars: Bindings): Piece[] {
  return patternParts(template).map((p): Piece => {
    if ('text' in p) return p;
    if (p.reads.every((name) => Object.hasOwn(vars, name))) {
      try {
        return { text: stringify(p.value({ vars: vars as Record<string, unknown> })) };
      } catch {
        return { any: true };
      }
    }
    return p.variable !== undefined ? { bind: p.variable } : { any: true };
  });
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The variables after text `actual` is read as the step's value `template` would have been
 * written (`Bearer ${token}` against `Bearer abc` binds token to `abc`); undefined when it
 * cannot be. A literal must be equal; a known variable must have the recorded value.
 */
export function fitText(template: unknown, actual: string, vars: Bindings): Bindings | undefined {
  if (typeof template !== 'string') return stringify(template) === actual ? vars : undefined;
  if (!template.includes('${')) return template === actual ? vars : undefined;
  const ps = pieces(template, vars);
  const groups: string[] = [];
  let source = '';
  for (const p of ps) {
    if ('text' in p) source += escape(p.text);
    else if ('any' in p) source += '[\\s\\S]*?';
    else {
      const seen = groups.indexOf(p.bind);
      if (seen >= 0) source += `\\${seen + 1}`;
      else {
        groups.push(p.bind);
        source += '([\\s\\S]*?)';
      }
    }
  }
  const m = new RegExp(`^${source}$`).exec(actual);
  if (!m) return undefined;
  if (!groups.length) return vars;
  const out: Record<string, unknown> = { ...vars };
  groups.forEach((name, i) => {
    out[name] = m[i + 1];
  });
  return out;
}

/**
 * The variables after a recorded JSON value is read as the step's value `template` (a request
 * body): every field the step gives must be there and fit (fields the step does not give may be
 * there too); lists fit item by item; `${name}` alone binds the recorded value, whatever its type.
 */
export function fitValue(template: unknown, actual: unknown, vars: Bindings): Bindings | undefined {
  if (typeof template === 'string') {
    if (!template.includes('${')) return actual === template ? vars : undefined;
    const ps = pieces(template, vars);
    const only = ps.length === 1 ? ps[0] : undefined;
    if (only && 'bind' in only) return actual === undefined ? undefined : { ...vars, [only.bind]: actual };
    if (only && 'any' in only) return actual === undefined ? undefined : vars;
    if (only && 'text' in only && typeof actual !== 'string') {
      // a single expression keeps its value's type: a known number fits the same number
      const parts = patternParts(template)[0];
      if (parts && !('text' in parts)) {
        try {
          return deepEqual(parts.value({ vars: vars as Record<string, unknown> }), actual) ? vars : undefined;
        } catch {
          return undefined;
        }
      }
    }
    return typeof actual === 'string' ? fitText(template, actual, vars) : undefined;
  }
  if (Array.isArray(template)) {
    if (!Array.isArray(actual) || actual.length !== template.length) return undefined;
    let v: Bindings | undefined = vars;
    for (let i = 0; i < template.length && v; i++) v = fitValue(template[i], actual[i], v);
    return v;
  }
  if (template !== null && typeof template === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return undefined;
    let v: Bindings | undefined = vars;
    for (const [k, t] of Object.entries(template)) {
      if (!v) break;
      const a = (actual as Record<string, unknown>)[k];
      v = a === undefined ? undefined : fitValue(t, a, v);
    }
    return v;
  }
  return deepEqual(template, actual) ? vars : undefined;
}
