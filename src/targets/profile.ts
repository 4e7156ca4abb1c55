import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { schemaErrors } from '../engine/loader/schema-check.js';
import { formatLocation, parseYaml, type YamlSource } from '../engine/loader/yaml-source.js';
import type { SourceLocation } from '../engine/model.js';
import { SpecgateError, SpecgateErrorList } from '../errors.js';
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
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${String(code ?? e)})`;
    throw new SpecgateError('SG_CONFIG', `the target profile ${file} ${why}; check the --target path`, { file }, { cause: e });
  }
  // a profile's syntax errors read as `file:line:column: <what>`, as they always have
  const src = parseYaml(file, text, { code: 'SG_CONFIG', label: '' });
  if (src.data === null || src.data === undefined) {
    throw new SpecgateError('SG_CONFIG', `${file}:1:1: the target profile is empty; it needs at least a suites: section`, { file });
  }
  throwAll(schemaErrors(src, 'target-profile', 'SG_CONFIG', 'profile'));

  const { data, bySuite, top } = resolveEnv(src, env);
  const raw = data as { name?: string; suites: Record<string, Record<string, unknown>> };
  const suites: Record<string, TargetSection> = {};
  const errors: SpecgateError[] = [];
  const all = new Set(top);
  for (const [suite, section] of Object.entries(raw.suites)) {
    const ctx = { src, suite, base: dirname(file), location: src.locateKey?.(['suites', suite]) ?? src.locate(['suites', suite]), errors };
    const built = buildTargetSection(section, bySuite.get(suite) ?? [], ctx);
    suites[suite] = built;
    for (const s of built.secrets ?? []) all.add(s);
  }
  throwAll(errors);
  return { file, ...(raw.name !== undefined ? { name: raw.name } : {}), suites, secrets: [...all] };
}

function throwAll(errors: SpecgateError[]): void {
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SpecgateErrorList(errors);
}

/**
 * A copy of the profile's data with `${env:NAME}` replaced in every string value, and the
 * values read, per suite (`suites.<name>...`) and outside any suite.
 */
function resolveEnv(src: YamlSource, env: NodeJS.ProcessEnv): { data: unknown; bySuite: Map<string, string[]>; top: string[] } {
  const bySuite = new Map<string, string[]>();
  const top: string[] = [];
  const errors: SpecgateError[] = [];
  const walk = (value: unknown, path: readonly (string | number)[]): unknown => {
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...path, i]));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, [...path, k])]));
    if (typeof value !== 'string' || !value.includes('${env:')) return value;
    const suite = path[0] === 'suites' && path.length > 1 ? String(path[1]) : undefined;
    let sink = top;
    if (suite !== undefined) {
      sink = bySuite.get(suite) ?? [];
      bySuite.set(suite, sink);
    }
    return value.replace(ENV_REF, (whole, name: string) => {
      const found = name.match(ENV_NAME) ? env[name] : undefined;
      if (found === undefined) {
        errors.push(envError(src.locate(path), name));
        return whole;
      }
      sink.push(found);
      return found;
    });
  };
  const data = walk(src.data, []);
  throwAll(errors);
  return { data, bySuite, top };
}

function envError(loc: SourceLocation, name: string): SpecgateError {
  const msg = ENV_NAME.test(name)
    ? `the environment variable ${name} is not set; export it before running specgate (the profile reads it with \${env:${name}})`
    : `"\${env:${name}}" is not a valid environment reference; use \${env:NAME} with a name of letters, digits and _`;
  return new SpecgateError('SG_CONFIG', `${formatLocation(loc)}: ${msg}`, { ...loc, variable: name });
}
