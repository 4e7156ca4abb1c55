import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecgateError, SpecgateErrorList } from '../../errors.js';
import type { Requirement } from '../model.js';
import { nearestNames } from '../near-names.js';
import { readCachedYaml } from '../loader/cached-yaml.js';
import type { Trace } from '../model.js';

/**
 * Reads a suite's `trace.yaml` when it has one. Problems go to `errors` with file:line:column:
 * the schema, a requirement the catalog does not have, and an informative statement that names
 * a requirement which is judged. Whether the quotes are in the specification is a question for the document, which
 * does not ship with the suite (test/suites/trace.test.ts asks it).
 */
export function loadTrace(dir: string, requirements: readonly Requirement[], display: (file: string) => string, errors: SpecgateError[]): Trace | undefined {
  const path = join(dir, 'trace.yaml');
  if (!existsSync(path)) return undefined;
  const file = display(path);
  let trace: Trace;
  let src: ReturnType<typeof readCachedYaml>;
  try {
    src = readCachedYaml(file, readFileSync(path, 'utf8'), 'trace');
    trace = src.data as Trace;
  } catch (e) {
    if (e instanceof SpecgateErrorList) errors.push(...e.errors);
    else if (e instanceof SpecgateError) errors.push(e);
    else throw e;
    return undefined;
  }
  const known = new Map(requirements.map((r) => [r.id, r]));
  const before = errors.length;
  trace.statements.forEach((s, i) => {
    const at = (p: (string | number)[]): string => {
      const l = src.locate(['statements', i, ...p]);
      return `${l.file}:${l.line}:${l.column}`;
    };
    (s.requirements ?? []).forEach((id, j) => {
      if (known.has(id)) return;
      const near = nearestNames(id, [...known.keys()]);
      errors.push(new SpecgateError('SG_SUITE_SCHEMA', `${at(['requirements', j])}: the trace names requirement "${id}", which the suite's requirements.yaml does not have${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; fix the ID or add the requirement`));
    });
    // an informative statement ("... not shown") may name the excluded requirement that records it, never one that is judged
    if (s.informative !== undefined)
      (s.requirements ?? []).forEach((id, j) => {
        if (known.get(id) && !known.get(id)?.excluded) errors.push(new SpecgateError('SG_SUITE_SCHEMA', `${at(['requirements', j])}: an informative statement names requirement "${id}", which is judged; a statement a requirement judges is not informative: drop \`informative:\``));
      });
  });
  if (errors.length > before) return undefined;
  src.remember();
  return trace;
}
