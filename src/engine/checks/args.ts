import type { ErrorObject, ValidateFunction } from 'ajv';
import { cachedValidator } from '../loader/schema-check.js';
import { pointerSegments } from '../schema-branches.js';
import type { TypedCheck } from './contract.js';

const validators = new WeakMap<object, ValidateFunction>();

function validatorFor(check: TypedCheck): ValidateFunction {
  let v = validators.get(check);
  if (!v) {
    // compiled once, then kept as code in the parse cache: loading a suite compiles none again
    v = cachedValidator({ args: check.args }, 'args');
    validators.set(check, v);
  }
  return v;
}

/** One problem with a check step's `with:`: where (a path below `with`) and what. */
export interface ArgProblem {
  path: (string | number)[];
  message: string;
  /** The problem is the key at `path` (an unknown argument), not its value. */
  key: boolean;
}

/**
 * Problems of `args` against the check's argument schema. With `atLoad`, a value that is one
 * `${...}` expression (or holds one inside a string) stands for anything of the right type:
 * the resolved arguments are checked again before the check runs.
 */
export function argProblems(check: TypedCheck, args: Record<string, unknown>, atLoad: boolean): ArgProblem[] {
  const validate = validatorFor(check);
  if (validate(args)) return [];
  const out: ArgProblem[] = [];
  for (const e of validate.errors ?? []) {
    const path = pointerSegments(e.instancePath);
    if (atLoad && expressionAt(args, path) && e.keyword !== 'additionalProperties' && e.keyword !== 'required') continue;
    const unknownKey = e.keyword === 'additionalProperties';
    out.push({ path: unknownKey ? [...path, String(e.params['additionalProperty'])] : path, message: describe(e), key: unknownKey });
  }
  // oneOf/anyOf errors repeat once per branch: keep one line per message
  const seen = new Set<string>();
  return out.filter((p) => {
    const key = `${p.path.join('.')}|${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function expressionAt(v: unknown, path: string[]): boolean {
  let cur = v;
  for (const p of path) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined;
  return typeof cur === 'string' && cur.includes('${');
}

function describe(e: ErrorObject): string {
  switch (e.keyword) {
    case 'additionalProperties':
      return `unknown argument "${String(e.params['additionalProperty'])}" (check its spelling)`;
    case 'required':
      return `missing required argument "${String(e.params['missingProperty'])}"`;
    case 'enum':
      return `must be one of ${JSON.stringify(e.params['allowedValues'])}`;
    default:
      return e.message ?? e.keyword;
  }
}
