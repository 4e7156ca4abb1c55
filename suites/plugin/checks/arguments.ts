import type { CodeGeneratorRequest, CodeGeneratorResponse } from '../../../reference/plugin/types.js';
import { responseSchema } from '../schemas.js';
import { FIXTURES, type FixtureName } from './fixtures.js';

/**
 * The `with:` arguments of the plugin suite's checks, as JSON Schemas (checked by the loader
 * before anything runs) and as the types the checks read them with.
 */

const fixture = { type: 'string', enum: Object.keys(FIXTURES), description: 'a stored descriptor fixture (suites/plugin/data)' };
const strings = { type: 'array', items: { type: 'string' } };
const runs = { type: 'integer', minimum: 1, description: 'generated values to try (default: the run\'s --runs)' };

function argsSchema(properties: Record<string, object>, required: string[] = []): object {
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
}

/** A check that takes no arguments. */
export const NO_ARGS = argsSchema({});

/** `fixture`: the stored fixture to run on (default: shop, or the first of var plugin_fixtures). */
export interface FixtureArgs {
  fixture?: FixtureName;
}
/** Schema of FixtureArgs. */
export const FIXTURE_ARGS = argsSchema({ fixture });

/** `runs`: how many generated values a property check tries. */
export interface RunsArgs {
  runs?: number;
}
/** Schema of RunsArgs. */
export const RUNS_ARGS = argsSchema({ runs });

/** Arguments of plugin.responseRules. */
export interface ResponseRulesArgs {
  /** Parameters to run every fixture with (`null`: no parameter); default var plugin_parameters. */
  parameters?: string | (string | null)[];
  /** One request to run instead of the fixtures, decoded (descriptor keys snake_case or camelCase). */
  request?: CodeGeneratorRequest;
}
/** Schema of ResponseRulesArgs. */
export const RESPONSE_RULES_ARGS = argsSchema({
  parameters: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: ['string', 'null'] } }] },
  request: { type: 'object', description: 'a CodeGeneratorRequest, decoded: run the plugin on it alone instead of on the fixtures' },
});

/** Arguments of plugin.schemaError. */
export interface SchemaErrorArgs extends FixtureArgs {
  /** Which target variable names the request the plugin cannot handle (default `parameter`). */
  via?: 'parameter' | 'fixture';
}
/** Schema of SchemaErrorArgs. */
export const SCHEMA_ERROR_ARGS = argsSchema({ via: { enum: ['parameter', 'fixture'] }, fixture });

/** Arguments of plugin.compilerRequest. */
export interface CompilerRequestArgs extends FixtureArgs {
  /** Files to generate (default: the fixture's). */
  files?: string[];
  /** Parameter given as `--req_out=PARAM:DIR`. */
  parameter?: string;
  /** Parameters given as `--req_opt=...`. */
  options?: string[];
}
/** Schema of CompilerRequestArgs. */
export const COMPILER_REQUEST_ARGS = argsSchema({ fixture, files: strings, parameter: { type: 'string' }, options: strings });

/** One scripted plugin of a compilerRun step (see ScriptedGenerator in compiler-harness.ts). */
export interface GeneratorArg {
  name: string;
  response?: CodeGeneratorResponse;
  /** Raw bytes the plugin writes instead of `response` (hex, spaces allowed). */
  responseHex?: string;
  outDir?: string;
  parameter?: string;
  options?: string[];
  exit?: number;
  viaSearchPath?: boolean;
}

const generator = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$', description: 'lower-case letters, digits and _: the compiler gets --<name>_out' },
    response: responseSchema,
    responseHex: { type: 'string', pattern: '^[0-9a-fA-F\\s]*$' },
    outDir: { type: 'string' },
    parameter: { type: 'string' },
    options: strings,
    exit: { type: 'integer' },
    viaSearchPath: { type: 'boolean' },
  },
};

/** Arguments of plugin.compilerRun. */
export interface CompilerRunArgs extends FixtureArgs {
  generators: GeneratorArg[];
  files?: string[];
  /** What a wrong tree or a refusal of valid output breaks (default: the case's first requirement). */
  requirement?: string;
  /** Files in the output folders before the run, as an earlier run left them: folder -> name -> content. */
  leftovers?: Record<string, Record<string, string>>;
}
const leftovers = {
  type: 'object',
  description: 'files an earlier run left in the output folders: folder -> file name -> content',
  additionalProperties: { type: 'object', additionalProperties: { type: 'string' } },
};
/** Schema of CompilerRunArgs: `generators` is required, each with a name. */
export const COMPILER_RUN_ARGS = argsSchema(
  { fixture, files: strings, requirement: { type: 'string' }, leftovers, generators: { type: 'array', minItems: 1, items: generator } },
  ['generators'],
);
