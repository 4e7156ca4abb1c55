import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { LineCounter, isPair, isScalar, parseDocument, visit } from 'yaml';
import type { SourceLocation } from '../engine/model.js';
import { SpecgateError, SpecgateErrorList } from '../errors.js';
import { fromRoot } from '../paths.js';
import { formatLocation, keyNode, locationOf, schemaErrors, syntaxErrors, type PositionedDoc } from './yaml-positions.js';
import { buildSuiteProfile, type SuiteProfile } from './profile-suite.js';

export type { AgentProfile, SuiteProfile } from './profile-suite.js';

/** A loaded target profile (schemas/target-profile.schema.json), `${env:...}` resolved. */
export interface TargetProfile {
  /** Absolute path of the profile file. */
  file: string;
  /** Label for reports. */
  name?: string;
  /** Per-suite sections, keyed by suite name. */
  suites: Record<string, SuiteProfile>;
  /** Every secret value of the profile (all suites): the engine's Redactor is built from these. */
  secrets: string[];
}

const ENV_REF = /\$\{env:([^}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

let validator: ValidateFunction | undefined;
function validate(): ValidateFunction {
  if (!validator) {
    const schema = JSON.parse(readFileSync(fromRoot('schemas', 'target-profile.schema.json'), 'utf8')) as object;
    validator = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(schema);
  }
  return validator;
}

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
  const lines = new LineCounter();
  const src: PositionedDoc = { file, doc: parseDocument(text, { lineCounter: lines, prettyErrors: true }), lines };
  throwAll(syntaxErrors(src));
  if (src.doc.contents === null) {
    throw new SpecgateError('SG_CONFIG', `${file}:1:1: the target profile is empty; it needs at least a suites: section`, { file });
  }
  const check = validate();
  if (!check(src.doc.toJS())) throwAll(schemaErrors(src, check.errors ?? []));

  const { bySuite, top } = resolveEnv(src, env);
  const raw = src.doc.toJS() as { name?: string; suites: Record<string, Record<string, unknown>> };
  const suites: Record<string, SuiteProfile> = {};
  const errors: SpecgateError[] = [];
  const all = new Set(top);
  for (const [suite, section] of Object.entries(raw.suites)) {
    const node = keyNode(src.doc.get('suites', true), suite);
    const ctx = { src, suite, base: dirname(file), location: locationOf(src, node), errors };
    const profile = buildSuiteProfile(section, bySuite.get(suite) ?? [], ctx);
    suites[suite] = profile;
    for (const s of profile.secrets) all.add(s);
  }
  throwAll(errors);
  return { file, ...(raw.name !== undefined ? { name: raw.name } : {}), suites, secrets: [...all] };
}

function throwAll(errors: SpecgateError[]): void {
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SpecgateErrorList(errors);
}

/** Replaces `${env:NAME}` in every string value, in place; returns the values read, per suite. */
function resolveEnv(src: PositionedDoc, env: NodeJS.ProcessEnv): { bySuite: Map<string, string[]>; top: string[] } {
  const bySuite = new Map<string, string[]>();
  const top: string[] = [];
  const errors: SpecgateError[] = [];
  visit(src.doc, {
    Scalar(key, node, path) {
      if (key === 'key' || typeof node.value !== 'string' || !node.value.includes('${env:')) return;
      const suite = suiteOf(path);
      let sink = top;
      if (suite !== undefined) {
        sink = bySuite.get(suite) ?? [];
        bySuite.set(suite, sink);
      }
      node.value = node.value.replace(ENV_REF, (whole, name: string) => {
        const value = name.match(ENV_NAME) ? env[name] : undefined;
        if (value === undefined) {
          errors.push(envError(locationOf(src, node), name));
          return whole;
        }
        sink.push(value);
        return value;
      });
    },
  });
  throwAll(errors);
  return { bySuite, top };
}

/** The suite a node sits in: the key of the pair directly under `suites`. */
function suiteOf(path: readonly unknown[]): string | undefined {
  // path: [Document, root map, Pair(suites), suites map, Pair(<suite>), ...]
  const outer = path[2];
  const inner = path[4];
  if (!isPair(outer) || !isScalar(outer.key) || outer.key.value !== 'suites') return undefined;
  return isPair(inner) && isScalar(inner.key) ? String(inner.key.value) : undefined;
}

function envError(loc: SourceLocation, name: string): SpecgateError {
  const msg = ENV_NAME.test(name)
    ? `the environment variable ${name} is not set; export it before running specgate (the profile reads it with \${env:${name}})`
    : `"\${env:${name}}" is not a valid environment reference; use \${env:NAME} with a name of letters, digits and _`;
  return new SpecgateError('SG_CONFIG', `${formatLocation(loc)}: ${msg}`, { ...loc, variable: name });
}
