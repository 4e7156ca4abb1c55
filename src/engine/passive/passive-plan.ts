import type { CaseDef } from '../model.js';
import { PASSIVE_JUDGES } from './passive-judges.js';

/** The verifier and operation of each step, when every step is a single-exchange `api.*` verifier with a literal operation. */
export function passivePlan(def: CaseDef): { verifier: string; operation: string; requirement?: string }[] | undefined {
  if (def.property || def.steps.length === 0) return undefined;
  const plan: { verifier: string; operation: string; requirement?: string }[] = [];
  for (const step of def.steps) {
    if (!('check' in step) || !step.check.startsWith('api.')) return undefined;
    const verifier = step.check.slice(4);
    if (!Object.hasOwn(PASSIVE_JUDGES, verifier)) return undefined;
    const args = step.with ?? {};
    const operation = args['operation'];
    const requirement = args['requirement'];
    // a step that picks its own parameters or body asks for a particular request: a recording may not hold it
    if (typeof operation !== 'string' || operation.includes('${') || ['params', 'query', 'json'].some((k) => args[k] !== undefined)) return undefined;
    if (requirement !== undefined && typeof requirement !== 'string') return undefined;
    plan.push({ verifier, operation, ...(requirement ? { requirement } : {}) });
  }
  return plan;
}
