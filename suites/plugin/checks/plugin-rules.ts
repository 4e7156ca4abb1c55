import { defineCheck } from '../../../src/engine/checks/contract.js';
import { sharedObservation, stableJson } from '../../../src/engine/checks/judged.js';
import type { CheckContext, FailureInput } from '../../../src/engine/suite-module.js';
import { encodeRequest } from '../../../reference/plugin/codec.js';
import type { CodeGeneratorRequest } from '../../../reference/plugin/types.js';
import { RESPONSE_RULES_ARGS, RUNS_ARGS, type ResponseRulesArgs, type RunsArgs } from './arguments.js';
import { loadFixture, requestFor, type FixtureName } from './fixtures.js';
import { generatedRequests } from './generated.js';
import { givenParameters } from './given-parameters.js';
import { PLUGIN_RESPONSE_JUDGES } from './judged.js';
import { answerFindings, appliesTo, brokenBy, JudgedTally, judgedBy, unjudgedBecause, type Found } from './answer-findings.js';
import { markerPrefix, pluginFixtures, runPlugin, sharedPluginRun, wants, type PluginRun } from './support.js';

/**
 * What a plugin's answer to one valid request breaks (answer-findings.ts), filtered to the
 * case's requirements.
 */
export function judgeRun(ctx: CheckContext, run: PluginRun, req: CodeGeneratorRequest): FailureInput[] {
  return answerFindings(run, req, markerPrefix(ctx)).filter((f) => wants(ctx, f.requirement));
}

/**
 * Reports what the answers judged, per requirement of the case: the number of answers that
 * judged it, or why none did (no input it applies to, or every such answer left nothing to
 * look at: untested with that reason, never passed on nothing). A requirement every answer left
 * unjudged by setting `error` beside its files is blocked by PLUGIN-ERROR-ONLY-ON-FAILURE, the
 * rule those answers broke.
 */
export function reportEvidence(ctx: CheckContext, tally: JudgedTally, inputs: string, hint = ''): void {
  for (const id of ctx.requirements) {
    const n = tally.observed(id);
    if (n > 0) {
      ctx.observed(id, n);
      continue;
    }
    const why = tally.reason(id, `no input applies to it (${inputs})`) ?? '';
    const by = tally.blockedBy(id);
    if (by !== undefined) ctx.blockedOne(id, by, `${why}${hint}`);
    else ctx.noEvidence(id, `${why}${hint}`);
  }
}

function parametersFrom(ctx: CheckContext, args: ResponseRulesArgs): (string | undefined)[] {
  return (args.parameters === undefined ? undefined : givenParameters({ plugin_parameters: args.parameters })) ?? givenParameters(ctx.vars) ?? [undefined];
}

/** What one answer broke, by every rule of the family, and which of the rules it let be judged. */
export interface JudgedAnswer {
  found: Found[];
  /** The requirements of the family this answer gave something to judge. */
  judged: string[];
  /** Why it gave the others nothing. */
  why: string;
  /** The requirements of the family that apply to the request it answered. */
  applies: string[];
  /** The rule the answer broke by not being a plain success (answer-findings.ts brokenBy). */
  broke?: string;
  /**
   * Set when the plugin answered by exiting with a non-zero status (not killed, not silent):
   * how it ended. A parameter the target did not give may be refused so (parameter-rules.ts).
   */
  exited?: string;
}

/**
 * The plugin's answer to fixture `name` with `parameter`, judged by every response rule. The
 * cases of one suite run (one per rule) share it: the first to ask runs the plugin, the others
 * wait for that run, see its exchange and keep the findings of their own requirements. Only the
 * findings are kept here; the run itself is the one every case sending the same request bytes
 * shares (support.ts sharedPluginRun, which keeps no huge answer). A run whose case was stopped
 * is not handed on (the engine's sharedObservation): the others run the plugin themselves. The
 * key names the plugin as the target or var plugin_command gives it.
 */
export async function fixtureAnswer(ctx: CheckContext, name: FixtureName, parameter: string | undefined): Promise<JudgedAnswer> {
  const plugin = ctx.execConfig ?? { command: ctx.vars['plugin_command'] ?? null };
  const prefix = markerPrefix(ctx);
  const key = `plugin fixture answer\u0000${stableJson({ name, parameter: parameter ?? null, plugin, prefix })}`;
  return sharedObservation(ctx, key, async (c) => {
    const req = requestFor(loadFixture(name), parameter === undefined ? {} : { parameter });
    const run = await sharedPluginRun(c, encodeRequest(req), fixtureLabel(name, parameter), req);
    return judgedAnswer(run, req, prefix);
  });
}

function judgedAnswer(run: PluginRun, req: CodeGeneratorRequest, prefix: string): JudgedAnswer {
  const broke = brokenBy(run);
  const code = run.noAnswer === undefined ? run.result.exitCode : null;
  const stderr = run.result.stderr.trim().split('\n')[0] ?? '';
  return {
    ...(broke === undefined ? {} : { broke }),
    ...(code !== null && code !== 0 ? { exited: `exit ${code}${stderr ? `: ${stderr.slice(0, 160)}` : ''}` } : {}),
    found: answerFindings(run, req, prefix),
    judged: PLUGIN_RESPONSE_JUDGES.filter((id) => judgedBy(id, run)),
    why: unjudgedBecause(run),
    applies: PLUGIN_RESPONSE_JUDGES.filter((id) => appliesTo(id, req)),
  };
}

/** Records an answer's failures for the case's requirements and counts what it let be judged. */
function take(ctx: CheckContext, tally: JudgedTally, label: string, answer: JudgedAnswer): void {
  for (const f of answer.found) if (wants(ctx, f.requirement)) ctx.fail(f);
  tallyAnswer(tally, label, answer);
}

/** Counts one answer as evidence: the requirements it applies to, judged, and why not where it left them unjudged. */
export function tallyAnswer(tally: JudgedTally, label: string, answer: JudgedAnswer): void {
  tally.add(label, (id) => answer.applies.includes(id), (id) => answer.judged.includes(id), answer.why, answer.broke);
}

/** `fixture shop (parameter suffix=.x)`: how evidence and findings name a fixture answer. */
export function fixtureLabel(fixture: string, parameter: string | undefined): string {
  return `fixture ${fixture}${parameter ? ` (parameter ${parameter})` : ''}`;
}

/**
 * `plugin.responseRules`: runs the plugin on every stored fixture (var plugin_fixtures) with
 * each parameter (with.parameters or var plugin_parameters), or on the one request
 * `with.request` gives, and judges each answer. The fixture answers are shared by the cases of a
 * run (one case per rule), see {@link fixtureAnswer}. A requirement every answer it applies to
 * left nothing to judge (a crash, no answer, no response) ends the case "not judged", after the
 * failures that were found, so it is never reported passed on nothing.
 */
export const responseRules = defineCheck<ResponseRulesArgs>({
  description: 'runs the plugin on every stored fixture (with each parameter), or on a given request, and judges each answer by the response rules',
  args: RESPONSE_RULES_ARGS,
  judges: PLUGIN_RESPONSE_JUDGES,
  run: async (ctx, args) => {
    const tally = new JudgedTally(ctx.requirements);
    if (args.request !== undefined) {
      const req = args.request;
      const run = await runPlugin(ctx, encodeRequest(req), 'the given request', req);
      take(ctx, tally, 'the given request', judgedAnswer(run, req, markerPrefix(ctx)));
      reportEvidence(ctx, tally, 'the given request');
      return;
    }
    const fixtures = pluginFixtures(ctx);
    for (const name of fixtures) {
      for (const parameter of parametersFrom(ctx, args)) {
        take(ctx, tally, fixtureLabel(name, parameter), await fixtureAnswer(ctx, name, parameter));
      }
    }
    reportEvidence(ctx, tally, `fixtures ${fixtures.join(', ')}`, '; see the exchanges (does the plugin need a parameter? set vars.plugin_parameters)');
  },
});

/**
 * `plugin.generatedRules`: the same judgement on generated valid requests (generators/plugin).
 * The property stops at its first counterexample; a requirement that applied to some generated
 * request but was judged on none (each of those answers crashed, say) is not judged: the case
 * then ends with that reason after its failures, and the requirement's verdict comes from the
 * cases that could judge it.
 */
export const generatedRules = defineCheck<RunsArgs>({
  description: 'runs the plugin on generated valid requests and judges each answer by the response rules',
  args: RUNS_ARGS,
  judges: PLUGIN_RESPONSE_JUDGES,
  run: async (ctx, { runs }) => {
    const tally = new JudgedTally(ctx.requirements);
    let n = 0;
    await ctx.property(generatedRequests(), async (req) => {
      const run = await runPlugin(ctx, encodeRequest(req), 'generated request', req);
      tally.add(`generated request ${++n} (file_to_generate: ${(req.file_to_generate ?? []).join(', ')})`, (id) => appliesTo(id, req), (id) => judgedBy(id, run), unjudgedBecause(run), brokenBy(run));
      return judgeRun(ctx, run, req)[0];
    }, { label: 'plugin.generatedRequests', ...(runs === undefined ? {} : { runs }) });
    reportEvidence(ctx, tally, `${n} generated requests`);
  },
});
