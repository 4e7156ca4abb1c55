import { SpecgateError, type SpecgateErrorCode } from '../../errors.js';
import { previewJson } from '../../checks/value-preview.js';
import { referencedVariables } from '../expressions.js';
import type { HttpRequestSpec } from '../model.js';
import type { StepScope } from './step-scope.js';

/**
 * A value a step needs has the wrong shape (a form field that holds an object, a path parameter
 * or base URL that holds nothing, a wait no clock can make). The loader has checked what the
 * suite file writes, so the value came through a variable, and whose fault it is depends on
 * where that variable got its value: the target profile (a configuration problem), or a capture,
 * check or `set:` earlier in the case, which read the target's answers (the target answered
 * something the case cannot go on from). Generated property inputs and row values are the
 * suite's own (a suite problem).
 */
export function misshapenValue(run: StepScope, vars: Record<string, unknown>, written: string, what: string): SpecgateError {
  const names = safeReferences(written);
  const fromProfile = names.length > 0 && names.every((n) => Object.prototype.hasOwnProperty.call(run.target.vars, n) && vars[n] === run.target.vars[n]);
  const own = names.some((n) => n === 'case' || n === 'oracle' || n === 'row');
  const code: SpecgateErrorCode = fromProfile ? 'SG_CONFIG' : own ? 'SG_SUITE_SCHEMA' : 'SG_TARGET_PROTOCOL';
  const why = fromProfile
    ? `it comes from the target profile: fix ${names.map((n) => `vars.${n}`).join(', ')} there`
    : own
      ? 'it is a value the suite generates; fix the case or its generator'
      : "it was set from an earlier answer of the target, which is not what this case can go on from";
  return new SpecgateError(code, `case ${run.caseId}: ${what}: ${why}`, { written, variables: names });
}

function safeReferences(s: string): string[] {
  try {
    return referencedVariables(s);
  } catch {
    return [];
  }
}

/** `undefined`, `null`, or a short JSON view of a value, for messages. */
export function shown(v: unknown): string {
  if (v === undefined || v === null) return 'nothing';
  return previewJson(v, 60) ?? String(v);
}

/**
 * Checks a request step's resolved values against what was written: the URL's variables and the
 * path parameters must hold something, and form fields must hold text (or lists of it). Written
 * literals are the loader's business; only values that came through `${...}` are looked at here.
 */
export function checkRequestValues(run: StepScope, written: HttpRequestSpec, resolved: HttpRequestSpec, vars: Record<string, unknown>): void {
  if (typeof written.url === 'string') {
    for (const name of safeReferences(written.url)) {
      const v = vars[name];
      if (v === undefined || v === null)
        throw misshapenValue(run, vars, written.url, `the url is ${JSON.stringify(written.url)}, and \${${name}} holds nothing`);
    }
  }
  for (const [name, raw] of Object.entries(written.params ?? {})) {
    const v = resolved.params?.[name];
    if (typeof raw === 'string' && raw.includes('${') && (v === undefined || v === null))
      throw misshapenValue(run, vars, raw, `path parameter ${name} is ${JSON.stringify(raw)}, which holds nothing`);
  }
  for (const [name, raw] of Object.entries(written.form ?? {})) {
    const v = resolved.form?.[name];
    const nested = Array.isArray(v) ? v.some((x) => typeof x === 'object' && x !== null) : typeof v === 'object' && v !== null;
    if (typeof raw === 'string' && raw.includes('${') && nested)
      throw misshapenValue(run, vars, raw, `form field "${name}" is ${JSON.stringify(raw)}, which holds an object (${shown(v)}) where a form needs text`);
  }
}
