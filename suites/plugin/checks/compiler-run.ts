import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { DEFAULT_MARKER_PREFIX, DEFAULT_METADATA_SUFFIX } from '../../../reference/plugin/model/index.js';
import type { CodeGeneratorResponse } from '../../../reference/plugin/types.js';
import { COMPILER_RUN_ARGS, RUNS_ARGS, type CompilerRunArgs, type GeneratorArg, type RunsArgs } from './arguments.js';
import { runCompiler, type CompilerInvocation, type ScriptedGenerator } from './compiler-harness.js';
import { expectedOutcome, FAILED_WRITES_NOTHING_RULE, judgeCompiler, OUTPUT_INSIDE_RULE } from './compiler-verdict.js';
import { diagnoseAcceptance, diagnoseRefusal, diagnoseTree } from './diagnose.js';
import { loadFixture } from './fixtures.js';
import { generatedInvocations } from './invocations.js';
import { COMPILER_RUN_JUDGES, COMPILER_TREE_JUDGES } from './judged.js';
import { compilerArgv, compilerEnv, failFor, markerPrefix, metadataSuffix, pluginNamePrefix } from './support.js';

/**
 * Rewrites protoc's forms in a response to the target's: the marker prefix in contents (var
 * insertion_marker_prefix) and the metadata suffix of file names (var metadata_file_suffix).
 */
function retarget(res: CodeGeneratorResponse, prefix: string, suffix: string): CodeGeneratorResponse {
  if ((prefix === DEFAULT_MARKER_PREFIX && suffix === DEFAULT_METADATA_SUFFIX) || !res.file) return res;
  return {
    ...res,
    file: res.file.map((f) => ({
      ...f,
      ...(f.content === undefined ? {} : { content: f.content.split(DEFAULT_MARKER_PREFIX).join(prefix) }),
      ...(f.name?.endsWith(DEFAULT_METADATA_SUFFIX) ? { name: `${f.name.slice(0, -DEFAULT_METADATA_SUFFIX.length)}${suffix}` } : {}),
    })),
  };
}

/** Leftover files with the default marker prefix rewritten to the target's, as for responses. */
function retargetLeftovers(leftovers: Record<string, Record<string, string>>, prefix: string): Record<string, Record<string, string>> {
  if (prefix === DEFAULT_MARKER_PREFIX) return leftovers;
  return Object.fromEntries(Object.entries(leftovers).map(([dir, files]) => [dir, Object.fromEntries(Object.entries(files).map(([n, c]) => [n, c.split(DEFAULT_MARKER_PREFIX).join(prefix)]))]));
}

/** The scripted plugins of a compilerRun step (`with.generators`, checked against COMPILER_RUN_ARGS). */
function scriptedGenerators(args: readonly GeneratorArg[], prefix: string, suffix: string): ScriptedGenerator[] {
  return args.map((g) => {
    const out: ScriptedGenerator = { name: g.name };
    if (g.response) out.response = retarget(g.response, prefix, suffix);
    if (g.responseHex !== undefined) out.responseBytes = Uint8Array.from(Buffer.from(g.responseHex.replace(/\s+/g, ''), 'hex'));
    if (g.outDir !== undefined) out.outDir = g.outDir;
    if (g.parameter !== undefined) out.parameter = g.parameter;
    if (g.options) out.options = g.options;
    if (g.exit !== undefined) out.exit = g.exit;
    if (g.viaSearchPath === true) out.viaSearchPath = true;
    return out;
  });
}

/** Runs an invocation and returns every deviation from the model, each with the run's exchange. */
async function runAndJudge(ctx: CheckContext, inv: CompilerInvocation, acceptRequirement: string): Promise<{ requirement: string; message: string; expected?: unknown; actual?: unknown }[]> {
  const prefix = markerPrefix(ctx);
  const suffix = metadataSuffix(ctx);
  const out = await runCompiler((spec) => ctx.exec(spec), inv);
  const expect = expectedOutcome(inv, out.sandbox, prefix, suffix);
  let accept = acceptRequirement;
  // A wrong tree or a refusal is put down to the rule whose bent model reproduces it: a fixed
  // case names its own rule, but a compiler that, say, does not indent also gets the insertion
  // in a generator-order case wrong, and that failure belongs to the indentation rule.
  if (expect.ok && out.exitCode === 0) accept = diagnoseTree(inv, out, acceptRequirement, prefix, suffix);
  if (expect.ok && out.exitCode !== 0) accept = diagnoseRefusal(inv, out.sandbox, acceptRequirement, prefix);
  const reordered = !expect.ok && out.exitCode === 0 ? diagnoseAcceptance(inv, out, prefix, suffix) : undefined;
  return judgeCompiler(expect, out, accept, suffix).map((f) => ({
    ...f,
    ...(reordered && f.requirement !== OUTPUT_INSIDE_RULE ? { requirement: reordered, message: `${f.message} (the output is what the generators give in reverse order)` } : {}),
    exchange: out.exchange,
  }));
}

/**
 * `plugin.compilerRun`: the compiler runs scripted plugins that answer the responses given in
 * `with.generators` (in command-line order), on a stored fixture (`with.fixture`, default
 * shop; `with.files` to generate, default the fixture's), and must write what the model says or
 * fail where the model fails. A wrong tree or a refusal of valid output is reported against
 * `with.requirement` (default: the case's first requirement); an accepted invalid response
 * against the rule the model names.
 */
export const compilerRun = defineCheck<CompilerRunArgs>({
  description: 'runs the compiler with scripted plugins answering the given responses; it must write what the rules give or fail where they fail',
  args: COMPILER_RUN_ARGS,
  judges: COMPILER_RUN_JUDGES,
  run: async (ctx, args) => {
    const prefix = markerPrefix(ctx);
    const fixture = loadFixture(args.fixture ?? 'shop');
    const inv: CompilerInvocation = {
      compiler: compilerArgv(ctx),
      env: compilerEnv(ctx),
      generators: scriptedGenerators(args.generators, prefix, metadataSuffix(ctx)),
      descriptorSet: fixture.set,
      files: args.files ?? fixture.file_to_generate,
      pluginPrefix: pluginNamePrefix(ctx),
      ...(args.leftovers ? { leftovers: retargetLeftovers(args.leftovers, prefix) } : {}),
    };
    const accept = args.requirement ?? ctx.requirements[0] ?? '';
    for (const f of await runAndJudge(ctx, inv, accept)) {
      // Files left after a rightful failure, and files outside the output folder, are judged
      // by the cases that cover those rules; every other case would otherwise report them too.
      if (f.requirement === FAILED_WRITES_NOTHING_RULE || f.requirement === OUTPUT_INSIDE_RULE) failFor(ctx, f);
      else ctx.fail(f);
    }
  },
});

/**
 * `plugin.compilerProperty`: generated invocations (valid responses from generators/plugin,
 * some bent to break one rule) must be written or rejected as the model says. A wrong tree is
 * put down to the rule whose bent model reproduces it (diagnose.ts).
 */
export const compilerProperty = defineCheck<RunsArgs>({
  description: 'runs the compiler on generated invocations (valid responses, some bent to break one rule); each must be written or refused as the rules say',
  args: RUNS_ARGS,
  judges: COMPILER_TREE_JUDGES,
  run: async (ctx, { runs }) => {
    const compiler = compilerArgv(ctx);
    const prefix = markerPrefix(ctx);
    // each invocation runs in a folder of its own: the runs do not depend on one another
    await ctx.property(generatedInvocations(prefix), async (gen) => {
      const inv: CompilerInvocation = { compiler, env: compilerEnv(ctx), generators: gen.generators, descriptorSet: { file: gen.request.proto_file ?? [] }, files: gen.request.file_to_generate ?? [], pluginPrefix: pluginNamePrefix(ctx) };
      const found = await runAndJudge(ctx, inv, 'PLUGIN-COMPILER-INSERTION-PLACEMENT');
      return found[0];
    }, { label: 'plugin.compilerInvocations', parallel: 4, ...(runs === undefined ? {} : { runs }) });
  },
});
