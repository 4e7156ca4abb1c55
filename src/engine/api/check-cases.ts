import { SpecgateError } from '../../errors.js';
import type { CaseDef, Step } from '../model.js';
import type { ApiTransitions } from './sequence-model.js';
import { findOperation, templateParams, type ApiTable } from './table.js';
import { nearestNames } from '../near-names.js';

type At = (stepIndex: number, path: (string | number)[]) => string;

/**
 * Checks, at load, what a case asks of the suite's API table: every `request: {operation}`
 * names a known operation and gives exactly its path parameters, and every `api.*` check names
 * a known operation or resource. Problems go to `errors` with file:line:column.
 */
export function checkApiUse(c: CaseDef, table: ApiTable | undefined, models: Readonly<Record<string, ApiTransitions>> | undefined, at: At, errors: SpecgateError[]): void {
  c.steps.forEach((step, j) => checkStep(step, table, models ?? {}, (p) => at(j, p), errors));
}

function checkStep(step: Step, table: ApiTable | undefined, models: Readonly<Record<string, ApiTransitions>>, at: (p: (string | number)[]) => string, errors: SpecgateError[]): void {
  const problem = (p: (string | number)[], m: string): void => {
    errors.push(new SpecgateError('SG_SUITE_SCHEMA', `${at(p)}: ${m}`));
  };
  if ('request' in step && step.request.operation !== undefined) {
    const id = step.request.operation;
    if (!table) return problem(['request', 'operation'], `names operation "${id}", but the suite has no api.yaml; add one or give the request a url`);
    if (typeof id === 'string' && id.includes('${')) return; // known once it runs
    const op = findOperation(table, id);
    if (!op) return problem(['request', 'operation'], unknownOperation(table, id));
    const params = step.request.params;
    if (params !== undefined && (typeof params !== 'object' || params === null)) return;
    const wanted = templateParams(op.path);
    const given = Object.keys(params ?? {});
    for (const name of given)
      if (!wanted.includes(name))
        problem(['request', 'params', name], `operation ${id} (${op.path}) has no path parameter "${name}"${wanted.length ? `; it takes ${wanted.join(', ')}` : ''}`);
    const missing = wanted.filter((w) => !given.includes(w) && table.params[w] === undefined);
    if (missing.length) problem(['request'], `operation ${id} (${op.path}) needs path parameter${missing.length > 1 ? 's' : ''} ${missing.join(', ')} under params:`);
  }
  if ('check' in step && step.check.startsWith('api.')) {
    const args = step.with ?? {};
    if (!table) return problem(['check'], `${step.check} judges the suite's API table, and the suite has no api.yaml`);
    const op = args['operation'];
    if (typeof op === 'string' && !op.includes('${') && !findOperation(table, op)) problem(['with', 'operation'], unknownOperation(table, op));
    const res = args['resource'];
    if (typeof res === 'string' && !res.includes('${') && !table.resources[res])
      problem(['with', 'resource'], `no resource "${res}" in ${table.file}; known: ${Object.keys(table.resources).join(', ') || '(none)'}`);
    const tr = args['transitions'];
    if (typeof tr === 'string' && !tr.includes('${')) {
      const m = models[tr];
      if (!m) problem(['with', 'transitions'], `no API transitions named "${tr}"; the suite module registers ${Object.keys(models).join(', ') || 'none'} under apiModels`);
      else if (typeof res === 'string' && m.resource !== res) problem(['with', 'transitions'], `transitions "${tr}" act on resource ${m.resource}, not ${res}`);
    }
  }
}

function unknownOperation(table: ApiTable, id: string): string {
  const near = nearestNames(id, table.operations.map((o) => o.id));
  return `no operation "${id}" in ${table.file}${near.length ? `; did you mean ${near.join(' or ')}?` : `; known: ${table.operations.map((o) => o.id).join(', ')}`}`;
}
