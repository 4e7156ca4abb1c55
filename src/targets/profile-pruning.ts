import type { SpecgateError } from '../errors.js';

/** A profile's data with the values that break its schema set aside, so the rest can still be checked. */
export interface PrunedProfile {
  /** What is left; undefined when nothing past the top level can be read (no `suites:` mapping). */
  data: { name?: unknown; suites: Record<string, Record<string, unknown>> } | undefined;
  /** Per suite, the keys of its section set aside (`http`, `agent`, `vars`, ...). */
  broken: Map<string, Set<string>>;
  /** Suites whose whole section is set aside: not a mapping, or a name no suite can have. */
  dropped: Set<string>;
  /** Of those, the names no suite can have (the schema's rule for suite names says so already). */
  misnamed: Set<string>;
}

/**
 * Sets aside what the profile's schema errors are about (DESIGN "Targets"): each error names the
 * value it is about (`detail.path`), and the smallest part that still leaves a well-formed
 * section goes: a key of a section (`suites.<s>.http` for a bad `http.timeoutMs`), one var with
 * an invalid name, a whole section that is not a mapping, a top-level key. What is set aside has
 * been reported already; the sections left are checked as usual, with the checks that read a
 * key set aside skipped rather than misled (TargetSection `broken`). A profile with no `suites:`
 * mapping leaves nothing to check.
 */
export function pruneBroken(data: unknown, schemaProblems: readonly SpecgateError[]): PrunedProfile {
  const broken = new Map<string, Set<string>>();
  const dropped = new Set<string>();
  const misnamed = new Set<string>();
  const nothing = (): PrunedProfile => ({ data: undefined, broken, dropped, misnamed });
  if (!isMapping(data) || !isMapping(data['suites'])) return nothing();
  const top: Record<string, unknown> = { ...data };
  const suites: Record<string, Record<string, unknown>> = {};
  for (const [name, section] of Object.entries(data['suites'])) {
    if (isMapping(section)) suites[name] = { ...section };
    else dropped.add(name);
  }
  for (const problem of schemaProblems) {
    const path = problemPath(problem);
    if (path === undefined || path.length === 0) return nothing();
    const [head, suite, key, name] = path;
    if (head !== 'suites') {
      delete top[String(head)];
      continue;
    }
    if (suite === undefined) return nothing();
    if (key === undefined) {
      dropped.add(suite);
      if (String(problem.detail?.['rule']).endsWith('/propertyNames')) misnamed.add(suite);
      continue;
    }
    const section = suites[suite];
    if (!section) continue;
    // a var's name breaking the pattern sets that var aside; the others are still read
    if (key === 'vars' && name !== undefined && isMapping(section['vars'])) {
      const vars = { ...section['vars'] };
      delete vars[name];
      section['vars'] = vars;
      continue;
    }
    delete section[key];
    const keys = broken.get(suite) ?? new Set<string>();
    keys.add(key);
    broken.set(suite, keys);
  }
  for (const name of dropped) {
    delete suites[name];
    broken.delete(name);
  }
  return { data: { ...top, suites }, broken, dropped, misnamed };
}

/** The path in the profile a schema error is about (`['suites', 'oauth', 'http', 'timeoutMs']`). */
export function problemPath(problem: SpecgateError): string[] | undefined {
  const path = problem.detail?.['path'];
  return Array.isArray(path) ? path.map(String) : undefined;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
