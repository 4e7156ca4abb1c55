import { defineCheck } from '../../../src/engine/checks/contract.js';
import { sharedObservation, stableJson } from '../../../src/engine/checks/judged.js';
import type { CheckContext, FailureInput } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { encodeRequest } from '../../../reference/plugin/codec.js';
import { validatePluginResponse } from '../../../reference/plugin/model/index.js';
import type { CodeGeneratorRequest } from '../../../reference/plugin/types.js';
import { RESPONSE_RULES_ARGS, RUNS_ARGS, type ResponseRulesArgs, type RunsArgs } from './arguments.js';
import { loadFixture, requestFor, type FixtureName } from './fixtures.js';
import { generatedRequests } from './generated.js';
import { PLUGIN_RESPONSE_JUDGES } from './judged.js';
import { describeResponse, markerPrefix, pluginFixtures, runPlugin, wants, type PluginRun } from './support.js';

/** A failure found in an answer, with the requirement it breaks. */
type Found = FailureInput & { requirement: string };

/**
 * Violations of one rule in one answer reported one by one; the rest are counted in one more
 * failure, so that an answer of ten thousand bad files costs a report a few lines, not ten
 * thousand.
 */
const LISTED_VIOLATIONS = 10;

/**
 * What a plugin's answer to one valid request breaks (spec A: What the service does, Rules for
 * File 1-4, CodeGeneratorResponse and its tags, Errors 1-2), filtered to the case's requirements.
 * A parseable request leaves a plugin no reason to exit non-zero: Errors 2 reserves that for
 * requests it cannot parse, and schema problems go to `error` with status 0 (Errors 1).
 */
export function judgeRun(ctx: CheckContext, run: PluginRun, req: CodeGeneratorRequest): FailureInput[] {
  return answerFindings(run, req, markerPrefix(ctx)).filter((f) => wants(ctx, f.requirement));
}

/** The request an answer was for, in a failure's `expected`/`actual` terms. */
function requestFacts(req: CodeGeneratorRequest): unknown {
  return { file_to_generate: req.file_to_generate ?? [], parameter: req.parameter, proto_file: (req.proto_file ?? []).map((f) => f.name) };
}

/** Everything an answer to a valid request breaks, every rule of the response family at once. */
function answerFindings(run: PluginRun, req: CodeGeneratorRequest, prefix: string): Found[] {
  const found: Found[] = [];
  const files = (req.file_to_generate ?? []).join(', ');
  if (run.noAnswer !== undefined) {
    // spec A, What the service does: every request gets its one response; silence is none
    found.push({
      requirement: 'PLUGIN-IO-ONE-RESPONSE',
      message: `${run.noAnswer} (file_to_generate: ${files}${req.parameter ? `, parameter: ${req.parameter}` : ''}); every request must get one CodeGeneratorResponse (if the plugin is only slow, raise exec.timeoutMs in the target profile)`,
      expected: 'one CodeGeneratorResponse on stdout, then exit',
      actual: { answer: 'none', request: requestFacts(req), stderr: run.result.stderr },
      exchange: run.exchange,
    });
  } else if (run.result.exitCode !== 0) {
    found.push({
      requirement: 'PLUGIN-ERROR-EXIT-ZERO',
      message: `the plugin exited with status ${run.result.exitCode ?? run.result.signal} on a valid request (file_to_generate: ${files}); only an unparseable request may end with a non-zero status, problems with the schema belong in CodeGeneratorResponse.error with status 0`,
      expected: { exitCode: 0 },
      actual: { exitCode: run.result.exitCode, signal: run.result.signal, stderr: run.result.stderr },
      exchange: run.exchange,
    });
  } else if (run.decodeError !== undefined || !run.response) {
    found.push({
      requirement: 'PLUGIN-IO-ONE-RESPONSE',
      message: `stdout is not an encoded CodeGeneratorResponse: ${run.decodeError ?? 'nothing decoded'}`,
      expected: 'one CodeGeneratorResponse in the binary wire format',
      actual: { stdoutBytes: run.result.stdout.length, head: Buffer.from(run.result.stdout.subarray(0, 64)).toString('hex') },
      exchange: run.exchange,
    });
  } else {
    // one description serves every failure of this answer
    const actual = describeResponse(run.response);
    const perRule = new Map<string, number>();
    if (run.unknownTags) {
      found.push({
        requirement: 'PLUGIN-RESPONSE-SCHEMA-TAGS',
        message: `the response carries fields under tags the schema does not define, which a compiler skips (file_to_generate: ${files}): ${run.unknownTags.slice(0, LISTED_VIOLATIONS).join('; ')}${run.unknownTags.length > LISTED_VIOLATIONS ? `; and ${run.unknownTags.length - LISTED_VIOLATIONS} more` : ''}`,
        expected: 'CodeGeneratorResponse: error 1, supported_features 2, file 15; File: name 1, insertion_point 2, content 15, generated_code_info 16',
        actual,
        exchange: run.exchange,
      });
    }
    for (const v of validatePluginResponse(run.response, req, { markerPrefix: prefix })) {
      const seen = (perRule.get(v.requirement) ?? 0) + 1;
      perRule.set(v.requirement, seen);
      if (seen <= LISTED_VIOLATIONS) found.push({ requirement: v.requirement, message: `${v.message} (file_to_generate: ${files})`, actual, exchange: run.exchange });
    }
    for (const [requirement, count] of perRule) {
      if (count <= LISTED_VIOLATIONS) continue;
      found.push({ requirement, message: `and ${count - LISTED_VIOLATIONS} more files break this rule in the same response (file_to_generate: ${files}); the first ${LISTED_VIOLATIONS} are listed`, actual, exchange: run.exchange });
    }
  }
  return found;
}

function parametersFrom(ctx: CheckContext, args: ResponseRulesArgs): (string | undefined)[] {
  const v: unknown = args.parameters ?? ctx.vars['plugin_parameters'];
  if (Array.isArray(v) && v.length) return v.map((p) => (p === null ? undefined : String(p)));
  if (typeof v === 'string' && v !== '') return [v];
  return [undefined];
}

/** What one answer broke, by every rule of the family, and whether the plugin exited 0. */
interface JudgedAnswer {
  found: Found[];
  exitZero: boolean;
}

/**
 * The plugin's answer to fixture `name` with `parameter`, judged by every response rule. The
 * cases of one suite run (one per rule) share it: the first to ask runs the plugin, the others
 * wait for that run, see its exchange and keep the findings of their own requirements. Only the
 * findings are kept, not the answer, so a huge answer is not held for the rest of the run. A run
 * whose case was stopped is not handed on (the engine's sharedObservation): the others run the
 * plugin themselves. The key names the plugin as the target or var plugin_command gives it.
 */
async function fixtureAnswer(ctx: CheckContext, name: FixtureName, parameter: string | undefined): Promise<JudgedAnswer> {
  const plugin = ctx.execConfig ?? { command: ctx.vars['plugin_command'] ?? null };
  const prefix = markerPrefix(ctx);
  const key = `plugin fixture answer\u0000${stableJson({ name, parameter: parameter ?? null, plugin, prefix })}`;
  return sharedObservation(ctx, key, async (c) => {
    const req = requestFor(loadFixture(name), parameter === undefined ? {} : { parameter });
    const run = await runPlugin(c, encodeRequest(req), `fixture ${name}${parameter ? ` (parameter ${parameter})` : ''}`, req);
    return { found: answerFindings(run, req, prefix), exitZero: run.result.exitCode === 0 };
  });
}

/**
 * `plugin.responseRules`: runs the plugin on every stored fixture (var plugin_fixtures) with
 * each parameter (with.parameters or var plugin_parameters) and judges each answer. The
 * answers are shared by the cases of a run (one case per rule), see {@link fixtureAnswer}.
 */
export const responseRules = defineCheck<ResponseRulesArgs>({
  description: 'runs the plugin on every stored fixture (with each parameter) and judges each answer by the response rules',
  args: RESPONSE_RULES_ARGS,
  judges: PLUGIN_RESPONSE_JUDGES,
  run: async (ctx, args) => {
    let judged = 0;
    for (const name of pluginFixtures(ctx)) {
      for (const parameter of parametersFrom(ctx, args)) {
        const answer = await fixtureAnswer(ctx, name, parameter);
        for (const f of answer.found) if (wants(ctx, f.requirement)) ctx.fail(f);
        if (answer.exitZero) judged++;
      }
    }
    if (judged === 0 && !wants(ctx, 'PLUGIN-ERROR-EXIT-ZERO')) {
      throw new SpecgateError('SG_TARGET_PROTOCOL', 'the plugin answered no fixture with exit status 0, so there is no response to judge; see the exchanges (does it need a parameter? set vars.plugin_parameters)');
    }
  },
});

/** `plugin.generatedRules`: the same judgement on generated valid requests (generators/plugin). */
export const generatedRules = defineCheck<RunsArgs>({
  description: 'runs the plugin on generated valid requests and judges each answer by the response rules',
  args: RUNS_ARGS,
  judges: PLUGIN_RESPONSE_JUDGES,
  run: async (ctx, { runs }) => {
    await ctx.property(generatedRequests(), async (req) => {
      const run = await runPlugin(ctx, encodeRequest(req), 'generated request', req);
      return judgeRun(ctx, run, req)[0];
    }, { label: 'plugin.generatedRequests', ...(runs === undefined ? {} : { runs }) });
  },
});
