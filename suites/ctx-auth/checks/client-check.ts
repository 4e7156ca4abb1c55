import { defineCheck } from '../../../src/engine/checks/contract.js';
import { judgeCase, sharedObservation, stableJson } from '../../../src/engine/checks/judged.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { notApplicableForRevision } from './client-discovery-judges.js';
import { JUDGED_REVISION, type ScenarioRun } from './client-evidence.js';
import { runTimeline } from './client-hide.js';
import { CLIENT_JUDGES, CLIENT_REQUIREMENT_IDS } from './client-judges.js';
import { NEUTRAL_SESSION_HEADER, NEUTRAL_VERSION_HEADER, ctxClientCommand, runScenario, targetHeaderName, type ScenarioLaunch } from './client-run.js';
import { SCENARIO_NAMES, type ScenarioName } from './client-scenarios.js';

interface ClientArgs {
  scenarios: ScenarioName[];
  budgetSeconds?: number;
}

/** Seconds a client gets to finish one session when the case does not say. */
export const DEFAULT_BUDGET_SECONDS = 20;

/** The revision the client implements: `ctx_client_revision`, a date, 2025-03-26 unless set. */
export function clientRevision(ctx: CheckContext): string {
  const v = ctx.vars['ctx_client_revision'];
  if (v === undefined || v === '') return JUDGED_REVISION;
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v))
    throw new SpecgateError('SG_CONFIG', `ctx_client_revision is ${JSON.stringify(v)}: give the protocol revision the client implements as a date, like ${JUDGED_REVISION}`);
  return v;
}

/**
 * `ctx-auth.clientScenarios`: plays the server and its authorization server for the client
 * under test in each scenario the case names (suites/ctx-auth/checks/client-scenarios.ts),
 * launches the client with the client contract's variables, and judges what it sent: one judge
 * per CTX-CLI-* requirement the case lists. Every case of a suite run that names a scenario
 * shares its one launch. A requirement that does not apply to the client (it sent no state; it
 * implements a later revision) ends the case not applicable, with the reason.
 */
export const clientScenarios = defineCheck<ClientArgs>({
  description: 'launch the context-protocol client against the played servers of the named scenarios and judge its requests: discovery, PKCE, state, registration, bearer tokens, renewal',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['scenarios'],
    properties: {
      scenarios: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...SCENARIO_NAMES] }, description: 'the played servers the client is launched against, one run each' },
      budgetSeconds: { type: 'number', exclusiveMinimum: 0, description: `how long the client gets to finish one session (default ${DEFAULT_BUDGET_SECONDS})` },
    },
  },
  judges: CLIENT_REQUIREMENT_IDS,
  async run(ctx, args) {
    const unknown = ctx.requirements.filter((id) => !CLIENT_JUDGES[id]);
    if (unknown.length) throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: ctx-auth.clientScenarios cannot judge ${unknown.join(', ')}`);
    const revision = clientRevision(ctx);
    // what the client's revision makes not applicable needs no launch
    const ahead = ctx.requirements.map((id) => notApplicableForRevision(id, revision));
    if (ahead.every((r) => r !== undefined)) ctx.notApplicable(ahead.join('; '));
    const launch: ScenarioLaunch = {
      command: ctxClientCommand(ctx),
      versionHeader: targetHeaderName(ctx, NEUTRAL_VERSION_HEADER),
      sessionHeader: targetHeaderName(ctx, NEUTRAL_SESSION_HEADER),
      budgetMs: (args.budgetSeconds ?? DEFAULT_BUDGET_SECONDS) * 1000,
    };
    const settled = await Promise.allSettled(args.scenarios.map((s) => sharedObservation(ctx, `ctx-auth client\u0000${s}\u0000${stableJson(launch)}`, (c) => runScenario(c, s, launch))));
    const runs: ScenarioRun[] = [];
    for (const s of settled) {
      if (s.status === 'rejected') throw s.reason;
      runs.push(s.value);
    }
    for (const run of runs) ctx.exchange(runTimeline(run));
    judgeCase(ctx, CLIENT_JUDGES, { runs, revision }, args);
  },
});
