import type { CaseDef, LoadedSuite } from '../../src/engine/model.js';
import type { SuiteModule } from '../../src/engine/suite-module.js';

/**
 * Which cases a recording (`--target har:`) can judge, as docs/passive.md states it, written
 * here apart from the engine (src/engine/passive/) so the passive tests hold it: every step a
 * check that judges one recorded exchange, on a named operation, with no parameters, query or
 * body of its own (those ask for a particular request, which a recording may not hold). Which
 * cases those are, and what they earn, is read from the loaded suite.
 */

/** The checks that judge one recorded exchange. */
const SINGLE_EXCHANGE_CHECKS = new Set(['api.served', 'api.schema', 'api.authRequired']);

/** The operations a case's steps judge, when a recording can judge the case; undefined when it needs live requests. */
export function recordedOperations(c: CaseDef): string[] | undefined {
  if (c.property !== undefined || c.steps.length === 0) return undefined;
  const ops: string[] = [];
  for (const s of c.steps) {
    if (!('check' in s) || !SINGLE_EXCHANGE_CHECKS.has(s.check)) return undefined;
    const args = s.with ?? {};
    const op = args['operation'];
    if (typeof op !== 'string' || op.includes('${') || ['params', 'query', 'json'].some((k) => args[k] !== undefined)) return undefined;
    ops.push(op);
  }
  return ops;
}

/**
 * The operations a case that opted in (`passive: judge`) names in its steps (`operation:` of a
 * request or of an `api.*` check); a request by URL names none. Undefined for a case that did not opt in.
 */
export function optedInOperations(c: CaseDef): string[] | undefined {
  if (c.passive !== 'judge' || c.skip !== undefined) return undefined;
  return c.steps.flatMap((s) => {
    const op = 'request' in s ? s.request.operation : 'check' in s ? s.with?.['operation'] : undefined;
    return typeof op === 'string' ? [op] : [];
  });
}

/**
 * The cases a recording that reaches the operations `reached` says (every one when absent)
 * judges, by ID: those a recording can judge whose every operation it reached, and those that
 * opted in (`passive: judge`), which a recording holding their requests judges — each of them
 * `sequenced` says the recording holds a sequence of (every one when absent: a recording of a
 * client that reads back what it wrote, with no other write between).
 */
export function casesJudgedFromRecording(suite: LoadedSuite, reached: (operation: string) => boolean = () => true, sequenced: (caseId: string) => boolean = () => true): string[] {
  return suite.cases.filter((c) => recordedOperations(c)?.every(reached) ?? (optedInOperations(c)?.every(reached) === true && sequenced(c.id))).map((c) => c.id);
}

/** The requirements a suite's passive rules (`passiveRules`) judge, each once, in the rules' order. */
export function ruledRequirements(module: SuiteModule): string[] {
  return [...new Set(Object.values(module.passiveRules ?? {}).flatMap((r) => r.requirements))];
}

/** The results of a suite's passive rules, by case ID (`passive:<name>`). */
export function passiveRuleCases(module: SuiteModule): string[] {
  return Object.keys(module.passiveRules ?? {}).map((name) => `passive:${name}`);
}

/**
 * The verdict each requirement earns from a conformant recording that reaches the operations
 * `reached` says (every one when absent): passed when a case it judges covers it, or it is one
 * of `ruled` (requirements of the suite's passive rules that the recording gives them, see
 * ruledRequirements), excluded when the catalog excludes it, untested otherwise; `sequenced`
 * as for casesJudgedFromRecording.
 */
export function passiveStatuses(suite: LoadedSuite, reached?: (operation: string) => boolean, ruled: readonly string[] = [], sequenced?: (caseId: string) => boolean): Record<string, string> {
  const judged = new Set(casesJudgedFromRecording(suite, reached, sequenced));
  const passed = new Set([...suite.cases.filter((c) => judged.has(c.id)).flatMap((c) => c.requirements), ...ruled]);
  return Object.fromEntries(suite.requirements.map((r) => [r.id, r.excluded !== undefined ? 'excluded' : passed.has(r.id) ? 'passed' : 'untested']));
}
