import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import { SpecgateError } from '../../errors.js';
import { cachedTextGet, cachedTextPut, codeCacheUsable } from './parse-cache.js';

/**
 * Compiling a JSON Schema with ajv costs far more than using it: the case schema alone takes
 * about 150 ms, about as long as starting Node.js, and every load of a suite (`list`, `validate`,
 * `run`) compiles it and the argument schema of each check its cases call. So a validator is
 * compiled once, its generated code (ajv's standalone code) kept in the parse cache under the
 * hash of what made it (the schemas, ajv's version and options), and later loads evaluate that
 * code instead: ajv itself is then not even loaded. The kept code runs only from a folder and a
 * file of this user that no one else may write (parse-cache.ts cachedTextGet). Without such a
 * cache (SPECGATE_NO_CACHE, a read-only install, a shared folder), it compiles as before: one
 * Ajv for every validator, no code written.
 */

// Bump whenever the way a validator is made changes what its code does.
const VERSION = '1';

// ajv is CommonJS: its parts are required when first needed, so a start that finds every
// validator cached never loads the compiler
const require = createRequire(import.meta.url);
let ajvVersion: string | undefined;

function version(): string {
  return (ajvVersion ??= (require('ajv/package.json') as { version: string }).version);
}

/**
 * The validator of `schemas[main]` (every schema of `schemas` added under its key, so they may
 * refer to each other by `$id`), from the cache when it holds one for exactly these schemas;
 * else compiled by an Ajv of `make` (schema-check.ts makes every Ajv) with `options`, which
 * must be the options of every Ajv `make` makes.
 */
export function compiledValidator(schemas: Readonly<Record<string, string | object>>, main: string, options: Options, make: (more: Options) => Ajv): ValidateFunction {
  const texts = Object.entries(schemas).map(([k, s]) => [k, typeof s === 'string' ? s : JSON.stringify(s)] as const);
  if (!codeCacheUsable()) return sharedCompile(texts, main, make);
  const hash = createHash('sha256').update(`${VERSION}\0${version()}\0${JSON.stringify(options)}\0${main}`);
  for (const [k, t] of texts) hash.update(`\0${k}\0${t}`);
  const file = `validator-${hash.digest('hex')}.cjs`;
  const kept = cachedTextGet(file);
  if (kept !== undefined) {
    const v = evaluate(kept);
    if (v) return v;
  }
  const ajv = make({ code: { source: true } });
  for (const [k, t] of texts) ajv.addSchema(JSON.parse(t) as object, k);
  const validate = found(ajv.getSchema(main), main, texts);
  try {
    const standalone = (require('ajv/dist/standalone') as { default: (a: Ajv, refs: Record<string, string>) => string }).default;
    cachedTextPut(file, standalone(ajv, { validate: main }));
  } catch {
    // a schema ajv cannot write as code is compiled on every load
  }
  return validate;
}

function found(v: ValidateFunction | undefined, main: string, texts: readonly (readonly [string, string])[]): ValidateFunction {
  if (!v) throw new SpecgateError('SG_INTERNAL', `no schema ${main} among ${texts.map(([k]) => k).join(', ')}`);
  return v;
}

/** Without a cache: one Ajv holds every schema, each added once by its text (the same `$id` may be asked for again). */
let shared: { ajv: Ajv; keys: Map<string, string> } | undefined;

function sharedCompile(texts: readonly (readonly [string, string])[], main: string, make: (more: Options) => Ajv): ValidateFunction {
  shared ??= { ajv: make({}), keys: new Map() };
  const { ajv, keys } = shared;
  let mainKey: string | undefined;
  try {
    for (const [k, t] of texts) {
      let key = keys.get(t);
      if (key === undefined) {
        key = `schema-${keys.size + 1}`;
        ajv.addSchema(JSON.parse(t) as object, key);
        keys.set(t, key);
      }
      if (k === main) mainKey = key;
    }
  } catch {
    // another schema under an `$id` the shared Ajv already holds: this one gets an Ajv of its own
    const own = make({});
    for (const [k, t] of texts) own.addSchema(JSON.parse(t) as object, k);
    return found(own.getSchema(main), main, texts);
  }
  return found(mainKey === undefined ? undefined : ajv.getSchema(mainKey), main, texts);
}

/** The validator a cached module exports, or undefined when the text is not one (a damaged file). */
function evaluate(code: string): ValidateFunction | undefined {
  try {
    const module = { exports: {} as Record<string, unknown> };
    // the module ajv wrote: it requires only ajv's runtime helpers
    new Function('require', 'module', 'exports', code)(require, module, module.exports);
    const v = module.exports['validate'];
    return typeof v === 'function' ? (v as ValidateFunction) : undefined;
  } catch {
    return undefined;
  }
}
