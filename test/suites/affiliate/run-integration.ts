import { isFailed } from '../../../src/engine/checks/judged.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { CheckContext } from '../../../src/engine/checks/context.js';
import type { Verdict } from '../../../src/engine/checks/contract.js';
import { SpecgateError } from '../../../src/errors.js';
import { fromRoot } from '../../../src/paths.js';
import { INTEGRATION_JUDGES } from '../../../suites/affiliate/checks/integration-judges.js';
import { runIntegration, type IntegrationRun } from '../../../suites/affiliate/checks/integration-run.js';

/**
 * Runs the integration cases of suites/affiliate/cases/integration.yaml the way the
 * `affiliate.integration` check does (one launch and one browser visit per case, the same
 * observation and judges), without the engine: each requirement's verdict is kept as the
 * judge gave it. Needs `npm run build` for the compiled integrations.
 */
export const REFERENCE_INTEGRATION = 'reference/affiliate/integration/main.js';
export const FAULT_INTEGRATION = fromRoot('dist', 'test', 'fixtures', 'affiliate', 'integrations', 'fault-integration.js');

export interface IntegrationCase {
  id: string;
  requirements: string[];
  scenario: string;
  /** The case's timeoutMs. */
  timeoutMs: number;
}

/** The cases of cases/integration.yaml: id, requirements and the scenario its check step names. */
export function integrationCases(): IntegrationCase[] {
  const raw = parse(readFileSync(fromRoot('suites', 'affiliate', 'cases', 'integration.yaml'), 'utf8')) as Array<{ id: string; requirements: string[]; timeoutMs: number; steps: Array<{ check: string; with: { scenario: string } }> }>;
  return raw.map((c) => ({ id: c.id, requirements: c.requirements, scenario: c.steps[0]?.with.scenario ?? '', timeoutMs: c.timeoutMs }));
}

/** Requirement ID -> the verdicts its cases got. */
export type Verdicts = Record<string, Array<{ caseId: string; verdict: Verdict }>>;

function context(caseId: string, requirements: string[], command: unknown, signal: AbortSignal): CheckContext {
  const unused = (what: string) => (): never => {
    throw new SpecgateError('SG_INTERNAL', `the integration check called ctx.${what}, which this harness does not give`);
  };
  return {
    suite: 'affiliate',
    caseId,
    requirements,
    vars: { integration_command: command },
    request: unused('request'),
    exec: unused('exec'),
    execConfig: undefined,
    clock: undefined,
    agent: undefined,
    signal,
    observations: new Map(),
    seed: 1,
    runs: 1,
    exchange: () => undefined,
    fail: unused('fail'),
    observed: () => undefined,
    noEvidence: unused('noEvidence'),
    blocked: unused('blocked'),
    blockedOne: unused('blockedOne'),
    property: unused('property'),
    wait: unused('wait'),
    resolve: (v) => v,
    skip: unused('skip'),
    notApplicable: unused('notApplicable'),
    headerName: (name) => name,
  };
}

/** Runs one case against `command` and judges each of its requirements. */
export async function runCase(c: IntegrationCase, command: unknown): Promise<{ run: IntegrationRun; verdicts: Record<string, Verdict> }> {
  const signal = AbortSignal.timeout(c.timeoutMs);
  const run = await runIntegration(context(c.id, c.requirements, command, signal), command, c.scenario);
  const verdicts: Record<string, Verdict> = {};
  for (const id of c.requirements) {
    const judge = INTEGRATION_JUDGES[id];
    if (!judge) throw new SpecgateError('SG_SUITE_SCHEMA', `case ${c.id} lists ${id}, which the integration check does not judge`);
    verdicts[id] = judge(run, { scenario: c.scenario });
  }
  return { run, verdicts };
}

/** A requirement's status over its cases: failed if any failed, unjudged if any could not judge, else passed. */
export function statusOf(verdicts: Verdicts): Record<string, 'passed' | 'failed' | 'unjudged'> {
  return Object.fromEntries(
    Object.entries(verdicts).map(([id, vs]) => {
      const failed = vs.some(({ verdict }) => 'ok' in verdict && !verdict.ok);
      const open = vs.some(({ verdict }) => 'unjudged' in verdict);
      return [id, failed ? 'failed' : open ? 'unjudged' : 'passed'];
    }),
  );
}

/** Why each non-passing verdict is what it is, for assertion messages. */
export function explain(verdicts: Verdicts): string[] {
  return Object.entries(verdicts).flatMap(([id, vs]) =>
    vs.flatMap(({ caseId, verdict }) => ('unjudged' in verdict ? [`${id} @ ${caseId}: not judged: ${verdict.unjudged}`] : isFailed(verdict) ? [`${id} @ ${caseId}: ${verdict.message}`] : [])),
  );
}
