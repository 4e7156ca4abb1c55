import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { encodeRequest } from '../../../reference/plugin/codec.js';
import { Rules } from '../../../reference/plugin/model/index.js';
import type { CodeGeneratorRequest } from '../../../reference/plugin/types.js';
import { judgeRun, judgeRunnerError, type FuzzFinding } from '../fuzz/judge-run.js';
import { markerPrefix, runPlugin, type PluginRun } from './support.js';

/** `with:` of `plugin.fuzzRequest`: one request, as the fuzzer writes it decoded. */
export interface FuzzRequestArgs {
  request: CodeGeneratorRequest;
}

/**
 * Every requirement the fuzzer's judge (fuzz/judge-run.ts) can name on one run: one response per
 * request, exit status zero, each plugin-side rule of the reference model, and the response's
 * schema tags. (Field order, determinism and file_to_generate take several runs of a request:
 * the fuzzer reports them without a regression case.)
 */
export const FUZZ_JUDGES: readonly string[] = [
  'PLUGIN-IO-ONE-RESPONSE',
  'PLUGIN-ERROR-EXIT-ZERO',
  Rules.nameRelative.plugin,
  Rules.nameDotComponents.plugin,
  Rules.nameSeparator.plugin,
  Rules.appendFirst.plugin,
  Rules.nameOnce.plugin,
  Rules.insertionName.plugin,
  Rules.insertionTarget.plugin,
  Rules.insertionMarker.plugin,
  Rules.errorWithFiles.plugin,
  Rules.featureBits.plugin,
  Rules.proto3Optional.plugin,
  'PLUGIN-RESPONSE-SCHEMA-TAGS',
];

/** Runs the plugin once on the request; a timeout or an oversized answer is a finding too. */
async function observe(ctx: CheckContext, request: CodeGeneratorRequest): Promise<{ run: PluginRun } | { finding: FuzzFinding }> {
  try {
    const run = await runPlugin(ctx, encodeRequest(request), 'fuzz counterexample', request);
    // a run stopped at its deadline is the fuzzer's timeout finding
    if (run.noAnswer !== undefined) return { finding: { requirement: 'PLUGIN-IO-ONE-RESPONSE', kind: 'timeout', message: `the plugin did not answer a valid request in time: ${run.noAnswer}`, ...(run.result.stderr ? { stderr: run.result.stderr } : {}) } };
    return { run };
  } catch (e) {
    // anything but a timeout or a cap is a harness or configuration fault and is rethrown
    return { finding: judgeRunnerError(e) };
  }
}

/**
 * `plugin.fuzzRequest`: the regression case `specgate fuzz plugin` writes for a counterexample.
 * The plugin is run on exactly that request and judged exactly as the fuzzer judged it, so the
 * case fails while the bug is there and passes once it is fixed, whatever seed later runs use.
 */
export const fuzzRequest = defineCheck<FuzzRequestArgs>({
  description: 'runs the plugin on one given CodeGeneratorRequest (a fuzz counterexample) and judges the run as `specgate fuzz plugin` does',
  args: {
    type: 'object',
    required: ['request'],
    additionalProperties: false,
    properties: { request: { type: 'object', description: 'a CodeGeneratorRequest, decoded (as in fuzz-plugin-<seed>.json)' } },
  },
  judges: FUZZ_JUDGES,
  run: async (ctx, args) => {
    const observed = await observe(ctx, args.request);
    // Rules the case does not answer for are passed over, as a baseline's are while fuzzing,
    // so a broken rule the case lists is still found behind them.
    const ignored = new Set(FUZZ_JUDGES.filter((id) => !ctx.requirements.includes(id)));
    const verdict = 'finding' in observed ? observed : judgeRun(args.request, observed.run.result, ignored, { markerPrefix: markerPrefix(ctx), schemaTags: true });
    if (!('finding' in verdict)) return;
    const f = verdict.finding;
    if (!ctx.requirements.includes(f.requirement)) {
      // A crash or a bad exit hides every rule of the response: the case is blocked by the rule broken.
      ctx.blocked(f.requirement, `the plugin broke ${f.requirement} on this request (${f.message}), so ${ctx.requirements.join(', ')} could not be judged; list ${f.requirement} in the case to report it`, 'run' in observed ? observed.run.exchange : undefined);
    }
    const actual = { kind: f.kind, ...(f.exitCode === undefined ? {} : { exitCode: f.exitCode }), ...(f.signal ? { signal: f.signal } : {}), ...(f.stderr ? { stderr: f.stderr } : {}) };
    ctx.fail({ requirement: f.requirement, message: f.message, actual, ...('run' in observed ? { exchange: observed.run.exchange } : {}) });
  },
});
