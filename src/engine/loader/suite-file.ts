import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecgateError, SpecgateErrorList } from '../../errors.js';
import type { HttpRequestSpec, SourceLocation, Step } from '../model.js';
import { readCachedYaml, type CachedSource } from './cached-yaml.js';

/** A variable a target gives the suite's cases (`suite.yaml` `vars:`). */
export interface VarDecl {
  description: string;
  secret?: boolean;
  /** A profile for another target must set it (when a selected case needs it). */
  required?: boolean;
  /** A value of the right form, shown by `list --vars` and `init` (never used as a value). */
  example?: unknown;
}

/** A named request or step fragment (`suite.yaml` `fragments:`). */
export type Fragment =
  | { kind: 'request'; request: Partial<HttpRequestSpec>; location: SourceLocation }
  | { kind: 'steps'; steps: Step[]; location: SourceLocation };

export interface CaseDefaults {
  timeoutMs?: number;
  tags?: string[];
  needs?: string[];
  /** Requirements every case rests on (added to each case's `assumes:`, except to a case that judges one itself). */
  assumes?: string[];
}

/** What every case of a suite shares (`suites/<suite>/suite.yaml`); all parts optional. */
export interface SuiteFile {
  /** Undefined when the suite declares no variables (then `${var}` reads are not checked at load). */
  vars: Record<string, VarDecl> | undefined;
  fragments: Record<string, Fragment>;
  defaults: CaseDefaults;
  /** The sides of the protocol the suite judges, when it declares them (src/engine/sides.ts). */
  sides?: Record<string, { description: string }>;
  /** The parts of the suite, when it declares them (src/engine/selection.ts). */
  parts?: Record<string, { description: string; requirements: string[] }>;
}

interface RawSuiteFile {
  sides?: Record<string, { description: string }>;
  parts?: Record<string, { description: string; requirements: string[] }>;
  vars?: Record<string, VarDecl>;
  fragments?: Record<string, { request?: Partial<HttpRequestSpec>; steps?: Step[] }>;
  defaults?: CaseDefaults;
}

/** Reads `suite.yaml` when the suite has one; problems go to `errors` with file:line:column. */
export function loadSuiteFile(dir: string, display: (file: string) => string, errors: SpecgateError[]): SuiteFile {
  const empty: SuiteFile = { vars: undefined, fragments: {}, defaults: {} };
  const path = join(dir, 'suite.yaml');
  if (!existsSync(path)) return empty;
  let raw: RawSuiteFile;
  let locate: (p: (string | number)[]) => SourceLocation;
  let src: CachedSource;
  try {
    src = readCachedYaml(display(path), readFileSync(path, 'utf8'), 'suite');
    raw = (src.data ?? {}) as RawSuiteFile;
    const s = src;
    locate = (p) => s.locate(p);
  } catch (e) {
    if (e instanceof SpecgateErrorList) errors.push(...e.errors);
    else if (e instanceof SpecgateError) errors.push(e);
    else throw e;
    return empty;
  }
  const fragments: Record<string, Fragment> = {};
  for (const [name, f] of Object.entries(raw.fragments ?? {})) {
    const location = locate(['fragments', name]);
    if (f.request) fragments[name] = { kind: 'request', request: f.request, location };
    else if (f.steps) fragments[name] = { kind: 'steps', steps: f.steps, location };
  }
  src.remember();
  return { vars: raw.vars, fragments, defaults: raw.defaults ?? {}, ...(raw.sides ? { sides: raw.sides } : {}), ...(raw.parts ? { parts: raw.parts } : {}) };
}
