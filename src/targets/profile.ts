import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { schemaErrors } from '../engine/loader/schema-check.js';
import { formatLocation, parseYaml, type YamlSource } from '../engine/loader/yaml-source.js';
import type { SourceLocation } from '../engine/model.js';
import { SpecgateError, SpecgateErrorList } from '../errors.js';
import { problemPath, pruneBroken } from './profile-pruning.js';
import { buildTargetSection } from './profile-suite.js';
import type { TargetSection } from './target-section.js';

/** A loaded target profile (schemas/target-profile.schema.json), `${env:...}` resolved. */
export interface TargetProfile {
  /** Absolute path of the profile file. */
  file: string;
  /** Label for reports. */
  name?: string;
  /** Per-suite sections, keyed by suite name. */
  suites: Record<string, TargetSection>;
  /** Every secret value of the profile (all suites): the engine's Redactor is built from these. */
  secrets: string[];
}

/** One problem of a profile, and the suite whose section holds it (none: the top level). */
export interface ProfileProblem {
  suite?: string;
  error: SpecgateError;
}

/** A profile read as far as it can be: what it holds, and every problem found on the way. */
export interface ProfileReading {
  /** Absolute path of the profile file. */
  file: string;
  /** The profile without what breaks a rule (and with unset `${env:...}` left as written); absent when `stopped`. */
  profile?: TargetProfile;
  /** Every suite the profile has a section for, sections set aside included (but for names no suite can have), with where its key is written. */
  sections: Record<string, SourceLocation>;
  /** In the order found: the schema's rules, `${env:...}`, then each section's own rules. */
  problems: ProfileProblem[];
  /** Why the reading stopped early (the file cannot be read, its YAML does not parse, ...): problems past it are found once it is fixed. */
  stopped?: string;
}

const ENV_REF = /\$\{env:([^}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads, validates and resolves a target profile (DESIGN "Targets"). Every problem is an
 * SG_CONFIG error positioned as `file:line:column` — YAML syntax, a schema rule, an unset
 * `${env:NAME}` — and all of a file's problems are reported at once. Only `${env:...}` is
 * resolved here; other `${...}` expressions stay for the engine. Each environment value read is
 * a secret, as is each var named under `secrets:`.
 */
export function loadProfile(path: string, env: NodeJS.ProcessEnv = process.env): TargetProfile {
  const reading = readProfile(path, env);
  throwAll(reading.problems.map((p) => p.error));
  if (!reading.profile) throw new SpecgateError('SG_INTERNAL', `${reading.file}: the profile was read without a problem yet holds nothing`);
  return reading.profile;
}

/**
 * Reads a target profile as far as it can be read, collecting every problem instead of stopping
 * at the first kind: what breaks the schema is set aside (profile-pruning.ts) and the rest is
 * still resolved and built, an unset `${env:NAME}` stays as written. Only an unreadable file,
 * YAML that does not parse, an empty file or one without a `suites:` mapping stop the reading.
 */
export function readProfile(path: string, env: NodeJS.ProcessEnv = process.env): ProfileReading {
  const file = resolve(path);
  const stop = (why: string, errors: readonly SpecgateError[]): ProfileReading => ({ file, sections: {}, problems: errors.map((error) => ({ error })), stopped: why });
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${String(code ?? e)})`;
    return stop('the file cannot be read', [new SpecgateError('SG_CONFIG', `the target profile ${file} ${why}; check the --target path`, { file }, { cause: e })]);
  }
  let src: YamlSource;
  try {
    // a profile's syntax errors read as `file:line:column: <what>`, as they always have
    src = parseYaml(file, text, { code: 'SG_CONFIG', label: '' });
  } catch (e) {
    if (e instanceof SpecgateErrorList) return stop('its YAML does not parse', e.errors);
    if (e instanceof SpecgateError) return stop('its YAML does not parse', [e]);
    throw e;
  }
  if (src.data === null || src.data === undefined)
    return stop('it is empty', [new SpecgateError('SG_CONFIG', `${file}:1:1: the target profile is empty; it needs at least a suites: section`, { file })]);

  const schema = schemaErrors(src, 'target-profile', 'SG_CONFIG', 'profile');
  const problems: ProfileProblem[] = schema.map((error) => ({ ...suiteOf(problemPath(error)), error }));
  const pruned = pruneBroken(src.data, schema);
  if (!pruned.data) return { file, sections: {}, problems, stopped: 'it has no suites: mapping to read the sections from' };
  const at = (suite: string): SourceLocation => src.locateKey?.(['suites', suite]) ?? src.locate(['suites', suite]);
  // a name no suite can have is not also "a suite specgate does not know"
  const written = Object.keys((src.data as { suites: Record<string, unknown> }).suites).filter((suite) => !pruned.misnamed.has(suite));
  const sections = Object.fromEntries(written.map((suite) => [suite, at(suite)]));

  const { data, bySuite, top, errors: envProblems } = resolveEnv(src, pruned.data, env);
  problems.push(...envProblems);
  const raw = data as { name?: unknown; suites: Record<string, Record<string, unknown>> };
  const suites: Record<string, TargetSection> = {};
  const all = new Set(top);
  for (const [suite, section] of Object.entries(raw.suites)) {
    const errors: SpecgateError[] = [];
    const broken = pruned.broken.get(suite);
    const ctx = { src, suite, base: dirname(file), location: at(suite), errors, ...(broken ? { broken } : {}) };
    const built = buildTargetSection(section, bySuite.get(suite) ?? [], ctx);
    suites[suite] = built;
    for (const s of built.secrets ?? []) all.add(s);
    problems.push(...errors.map((error) => ({ suite, error })));
  }
  const name = typeof raw.name === 'string' ? raw.name : undefined;
  return { file, profile: { file, ...(name !== undefined ? { name } : {}), suites, secrets: [...all] }, sections, problems };
}

function throwAll(errors: SpecgateError[]): void {
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SpecgateErrorList(errors);
}

/** The suite a path in the profile is inside of (`suites.<name>...`), as a problem's `suite`. */
function suiteOf(path: readonly (string | number)[] | undefined): { suite?: string } {
  return path && path[0] === 'suites' && path.length > 1 ? { suite: String(path[1]) } : {};
}

/**
 * A copy of the profile's data with `${env:NAME}` replaced in every string value, and the
 * values read, per suite (`suites.<name>...`) and outside any suite. A reference to an unset
 * variable is a problem and stays as written.
 */
function resolveEnv(src: YamlSource, value: unknown, env: NodeJS.ProcessEnv): { data: unknown; bySuite: Map<string, string[]>; top: string[]; errors: ProfileProblem[] } {
  const bySuite = new Map<string, string[]>();
  const top: string[] = [];
  const errors: ProfileProblem[] = [];
  const walk = (value: unknown, path: readonly (string | number)[]): unknown => {
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...path, i]));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, [...path, k])]));
    if (typeof value !== 'string' || !value.includes('${env:')) return value;
    const { suite } = suiteOf(path);
    let sink = top;
    if (suite !== undefined) {
      sink = bySuite.get(suite) ?? [];
      bySuite.set(suite, sink);
    }
    return value.replace(ENV_REF, (whole, name: string) => {
      const found = name.match(ENV_NAME) ? env[name] : undefined;
      if (found === undefined) {
        errors.push({ ...(suite !== undefined ? { suite } : {}), error: envError(src.locate(path), name) });
        return whole;
      }
      sink.push(found);
      return found;
    });
  };
  const data = walk(value, []);
  return { data, bySuite, top, errors };
}

function envError(loc: SourceLocation, name: string): SpecgateError {
  const msg = ENV_NAME.test(name)
    ? `the environment variable ${name} is not set; export it before running specgate (the profile reads it with \${env:${name}})`
    : `"\${env:${name}}" is not a valid environment reference; use \${env:NAME} with a name of letters, digits and _`;
  return new SpecgateError('SG_CONFIG', `${formatLocation(loc)}: ${msg}`, { ...loc, variable: name });
}
