import { isDeepStrictEqual } from 'node:util';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { encodeRequest } from '../../../reference/plugin/codec.js';
import type { CodeGeneratorRequest } from '../../../reference/plugin/types.js';
import { appendUnknownFields, lengthDelimited, reorderRequest, varintField, type FieldOrder } from '../../../reference/plugin/wire.js';
import { FIXTURE_ARGS, NO_ARGS, SCHEMA_ERROR_ARGS, type FixtureArgs, type SchemaErrorArgs } from './arguments.js';
import { isFixtureName, loadFixture, requestFor, type FixtureName } from './fixtures.js';
import { alwaysWritten, createdNames, insertionTargets, outputForImports } from '../fuzz/import-output.js';
import { brokenBy } from './answer-findings.js';
import { failFor, outcomeText, pluginFixtures, responseFiles, runPlugin, sharedPluginRun, succeeded, wants, type PluginRun } from './support.js';

/** The fixture a behaviour check runs on: with.fixture, else `shop` when allowed, else the first allowed. */
function baseFixture(ctx: CheckContext, args: FixtureArgs): FixtureName {
  if (args.fixture !== undefined) return args.fixture;
  const allowed = pluginFixtures(ctx);
  return allowed.includes('shop') ? 'shop' : (allowed[0] ?? 'shop');
}

/**
 * Ends the case when a plain request the behaviour is compared on got no plain success: blocked
 * by the rule that answer broke (answer-findings.ts brokenBy), or, when it broke none (it set
 * `error` without files: it says it cannot generate for the schema), untested with that reason.
 */
function cannotCompare(ctx: CheckContext, run: PluginRun, what: string): void {
  const reason = `${what} (${outcomeText(run)}), so ${ctx.requirements.join(', ')} cannot be judged`;
  const by = brokenBy(run);
  if (by !== undefined) ctx.blocked(by, reason, run.exchange);
  for (const id of ctx.requirements) ctx.noEvidence(id, reason);
}

/**
 * A baseline run that must succeed for a comparison to mean anything, and a second run on the
 * same bytes that tells whether the answers can be compared at all. Both are the runs every case
 * sending that request shares (support.ts sharedPluginRun, rounds 1 and 2).
 */
async function baseline(ctx: CheckContext, req: CodeGeneratorRequest, label: string): Promise<{ run: PluginRun; stable: boolean } | undefined> {
  const bytes = encodeRequest(req);
  const first = await sharedPluginRun(ctx, bytes, label, req);
  if (!succeeded(first)) {
    cannotCompare(ctx, first, `the plugin does not answer the plain request (${label}) with generated files`);
    return undefined;
  }
  const second = await sharedPluginRun(ctx, bytes, label, req, 2);
  return { run: first, stable: succeeded(second) && isDeepStrictEqual(responseFiles(first.response), responseFiles(second.response)) };
}

/** Runs `bytes` and compares with the baseline: must succeed, and answer the same when the plugin is deterministic. */
async function sameAsBaseline(ctx: CheckContext, requirement: string, base: { run: PluginRun; stable: boolean }, bytes: Uint8Array, label: string, req: CodeGeneratorRequest, compare = true): Promise<void> {
  const run = await runPlugin(ctx, bytes, label, req);
  if (!succeeded(run)) {
    failFor(ctx, { requirement, message: `the plugin failed on ${label}, a request it answers in the usual form: ${outcomeText(run)}`, expected: outcomeText(base.run), actual: outcomeText(run), exchange: run.exchange });
    return;
  }
  if (compare && base.stable && !isDeepStrictEqual(responseFiles(run.response), responseFiles(base.run.response))) {
    failFor(ctx, { requirement, message: `the plugin answered ${label} differently from the same request in the usual form`, expected: responseFiles(base.run.response), actual: responseFiles(run.response), exchange: run.exchange });
  }
}

/** `plugin.fieldOrder` (PLUGIN-WIRE-FIELD-ORDER): proto_file first, interleaved, all fields reversed. */
export const fieldOrder = defineCheck<FixtureArgs>({
  description: 'runs the plugin on one request encoded with its fields in other orders; each answer must match the usual one',
  args: FIXTURE_ARGS,
  judges: ['PLUGIN-WIRE-FIELD-ORDER'],
  run: async (ctx, args) => {
    const name = baseFixture(ctx, args);
    const req = requestFor(loadFixture(name), { fileToGenerate: loadFixture(name).set.file?.map((f) => f.name ?? '') ?? [] });
    const base = await baseline(ctx, req, `fixture ${name}`);
    if (!base) return;
    const bytes = encodeRequest(req);
    for (const order of ['proto-file-first', 'interleaved', 'reversed'] satisfies FieldOrder[]) {
      await sameAsBaseline(ctx, 'PLUGIN-WIRE-FIELD-ORDER', base, reorderRequest(bytes, order), `fixture ${name} with fields ${order}`, req);
    }
  },
});

/** `plugin.unknownFields` (PLUGIN-UNKNOWN-FIELDS-IGNORED): unknown fields before and after the known ones. */
export const unknownFields = defineCheck<FixtureArgs>({
  description: 'runs the plugin on one request with unknown fields before and after the known ones; each answer must match the usual one',
  args: FIXTURE_ARGS,
  judges: ['PLUGIN-UNKNOWN-FIELDS-IGNORED'],
  run: async (ctx, args) => {
    const name = baseFixture(ctx, args);
    const req = requestFor(loadFixture(name));
    const base = await baseline(ctx, req, `fixture ${name}`);
    if (!base) return;
    const bytes = encodeRequest(req);
    const front = [lengthDelimited(4000, new TextEncoder().encode('a newer compiler field')), varintField(4001, 7)];
    await sameAsBaseline(ctx, 'PLUGIN-UNKNOWN-FIELDS-IGNORED', base, appendUnknownFields(bytes), `fixture ${name} with unknown fields appended`, req);
    await sameAsBaseline(ctx, 'PLUGIN-UNKNOWN-FIELDS-IGNORED', base, appendUnknownFields(new Uint8Array(0), [...front, bytes]), `fixture ${name} with unknown fields in front`, req);
  },
});

/**
 * `plugin.compilerVersion` (PLUGIN-VERSION-OPTIONAL): compiler_version absent, empty,
 * or naming another version. Generated code may name the version, so only success is required.
 */
export const compilerVersion = defineCheck<FixtureArgs>({
  description: 'runs the plugin on one request without compiler_version, with an empty one and with another version; each must succeed',
  args: FIXTURE_ARGS,
  judges: ['PLUGIN-VERSION-OPTIONAL'],
  run: async (ctx, args) => {
    const name = baseFixture(ctx, args);
    const base = await baseline(ctx, requestFor(loadFixture(name)), `fixture ${name}`);
    if (!base) return;
    const variants: [string, CodeGeneratorRequest][] = [
      ['without compiler_version', requestFor(loadFixture(name), { compilerVersion: null })],
      ['with an empty compiler_version', requestFor(loadFixture(name), { compilerVersion: {} })],
      ['with compiler_version 4.0.0-rc1', requestFor(loadFixture(name), { compilerVersion: { major: 4, minor: 0, patch: 0, suffix: 'rc1' } })],
    ];
    for (const [label, req] of variants) {
      await sameAsBaseline(ctx, 'PLUGIN-VERSION-OPTIONAL', base, encodeRequest(req), `fixture ${name} ${label}`, req, false);
    }
  },
});

/** `plugin.deterministic` (PLUGIN-DETERMINISTIC): the same request three times gives the same bytes. */
export const deterministic = defineCheck<FixtureArgs>({
  description: 'runs the plugin three times on one request; the answers must be byte for byte the same',
  args: FIXTURE_ARGS,
  judges: ['PLUGIN-DETERMINISTIC'],
  run: async (ctx, args) => {
    const name = baseFixture(ctx, args);
    const req = requestFor(loadFixture(name));
    const bytes = encodeRequest(req);
    // three processes on the same bytes; the first two are the runs other cases share (a baseline and its second run)
    const runs: PluginRun[] = [];
    for (let round = 1; round <= 3; round++) runs.push(await sharedPluginRun(ctx, bytes, `fixture ${name}`, req, round));
    const [first, ...rest] = runs;
    if (!first) return;
    for (const r of rest) {
      const same = r.result.exitCode === first.result.exitCode && Buffer.from(r.result.stdout).equals(Buffer.from(first.result.stdout));
      if (!same) {
        failFor(ctx, {
          requirement: 'PLUGIN-DETERMINISTIC',
          message: 'the same request gave different answers',
          expected: { exitCode: first.result.exitCode, files: responseFiles(first.response) },
          actual: { exitCode: r.result.exitCode, files: responseFiles(r.response) },
          exchange: r.exchange,
        });
        return;
      }
    }
    // three equal crashes are no answers to compare: the crash is another rule's finding
    if (!first.response) cannotCompare(ctx, first, `no run on fixture ${name} gave a response to compare`);
    else ctx.observed('PLUGIN-DETERMINISTIC', runs.length);
  },
});

/** A request whose main file imports another: asked for the main file alone, nothing may be generated for the import. */
interface ImportPair {
  fixture: FixtureName;
  main: string;
  imported: string;
  kind: string;
}

/** A schema import of the user's own, and an import of a well-known type (plugins often special-case those). */
const IMPORT_PAIRS: readonly ImportPair[] = [
  { fixture: 'shop', main: 'shop.proto', imported: 'common.proto', kind: 'its import' },
  { fixture: 'event', main: 'event.proto', imported: 'google/protobuf/timestamp.proto', kind: 'its well-known-type import' },
];

/** One import pair's three answers: the import alone, both files, the main file alone. */
interface PairAnswers {
  pair: ImportPair;
  importedOnly: PluginRun;
  both: PluginRun;
  one: PluginRun;
}

/**
 * `plugin.fileToGenerate` (PLUGIN-FILE-TO-GENERATE): for each import pair (shop.proto importing
 * common.proto; event.proto importing google/protobuf/timestamp.proto) the plugin is asked for
 * the import alone, for both files, and for the main file alone, and the SETS of files created
 * are compared (fuzz/import-output.ts, the fuzzer's judgement too): asked for the main file
 * alone, the plugin may create only what asking for both creates beyond what the import alone
 * gives (the main file's own output), files it creates whatever it is asked (in the answer to
 * every request of every pair, such as a runtime file), and files that answer creates and then
 * inserts into itself (an insertion target of the run, which belongs to no one file asked for).
 * So output for an import is caught under any name. Only which files are created is judged:
 * how they are named, chunked or inserted into is the naming and insertion rules' business
 * (cases of their own), so a fault there fails its own rule and not this one. A pair whose
 * import alone gives nothing of its own cannot tell and is passed over; when no pair can tell,
 * the requirement is untested with that reason. A pair whose answers are no plain success
 * blocks the case by the rule that answer broke.
 */
export const fileToGenerate = defineCheck<Record<string, never>>({
  description: 'asks the plugin for a file without its imports; it must not generate code for the imports, under any name',
  args: NO_ARGS,
  judges: ['PLUGIN-FILE-TO-GENERATE'],
  run: async (ctx) => {
    const answers: PairAnswers[] = [];
    for (const pair of IMPORT_PAIRS) {
      const fixture = loadFixture(pair.fixture);
      const ask = async (files: string[]): Promise<PluginRun> => {
        const req = requestFor(fixture, { fileToGenerate: files });
        return sharedPluginRun(ctx, encodeRequest(req), `${pair.fixture} fixture, file_to_generate ${files.join(' + ')}`, req);
      };
      const importedOnly = await ask([pair.imported]);
      const both = await ask([pair.imported, pair.main]);
      const one = await ask([pair.main]);
      for (const r of [importedOnly, both, one]) {
        if (!succeeded(r)) {
          cannotCompare(ctx, r, `the plugin does not answer the ${pair.fixture} fixture with generated files`);
          return;
        }
      }
      answers.push({ pair, importedOnly, both, one });
    }
    const always = alwaysWritten(answers.flatMap((a) => [a.importedOnly, a.both, a.one].map((r) => createdNames(r.response))));
    let told = 0;
    for (const { pair, importedOnly, both, one } of answers) {
      const v = outputForImports({ forImports: createdNames(importedOnly.response), forBoth: createdNames(both.response), forMainAlone: createdNames(one.response), forMainAloneTargets: insertionTargets(one.response) }, always);
      if (!v.told) continue;
      told++;
      if (v.extra.length) {
        failFor(ctx, {
          requirement: 'PLUGIN-FILE-TO-GENERATE',
          message: `asked for ${pair.main} only, the plugin also wrote ${v.extra.join(', ')}: not the output ${pair.main} gets when both files are asked for, so output for ${pair.kind} ${pair.imported}, which is not in file_to_generate`,
          expected: { files: [...v.forMain, ...always].sort(), forImportAlone: [...createdNames(importedOnly.response)].sort() },
          actual: [...createdNames(one.response)].sort(),
          exchange: one.exchange,
        });
      }
    }
    if (told === 0) {
      ctx.noEvidence('PLUGIN-FILE-TO-GENERATE', `the plugin generates nothing of its own for ${IMPORT_PAIRS.map((p) => p.imported).join(' or ')} alone, so whether it generates code for imported files cannot be told`);
    } else {
      ctx.observed('PLUGIN-FILE-TO-GENERATE', told);
    }
  },
});

/**
 * `plugin.schemaError` (PLUGIN-ERROR-EXIT-ZERO): a request the plugin cannot generate for, named
 * by the target (var plugin_error_parameter: a parameter that makes it fail; var
 * plugin_error_fixture: a stored fixture it cannot handle), must come back as `error` with
 * exit status 0.
 */
export const schemaError = defineCheck<SchemaErrorArgs>({
  description: 'runs the plugin on a request the target names as one it cannot generate for; it must answer error with exit status 0',
  args: SCHEMA_ERROR_ARGS,
  judges: ['PLUGIN-ERROR-EXIT-ZERO', 'PLUGIN-IO-ONE-RESPONSE', 'PLUGIN-IO-RESPONSE-DECODES', 'PLUGIN-IO-STDOUT-ONLY-RESPONSE'],
  run: async (ctx, args) => {
    const via = args.via ?? 'parameter';
    let req: CodeGeneratorRequest;
    let label: string;
    if (via === 'parameter') {
      const parameter = String(ctx.vars['plugin_error_parameter'] ?? '');
      const name = baseFixture(ctx, args);
      req = requestFor(loadFixture(name), { parameter });
      label = `fixture ${name} with parameter ${parameter}`;
    } else {
      const name = String(ctx.vars['plugin_error_fixture'] ?? '');
      if (!isFixtureName(name)) throw new SpecgateError('SG_CONFIG', `vars.plugin_error_fixture: no fixture "${name}"`);
      req = requestFor(loadFixture(name));
      label = `fixture ${name}`;
    }
    const run = await runPlugin(ctx, encodeRequest(req), label, req);
    // without an answer, or without a response in it, whether `error` was used cannot be told:
    // the case is blocked by the rule the answer broke
    const unjudged = (why: string, by: string): never =>
      ctx.blocked(by, `${why} (${label}), so whether the plugin reports the problem in CodeGeneratorResponse.error cannot be told`, run.exchange);
    if (run.noAnswer !== undefined) {
      if (!wants(ctx, 'PLUGIN-IO-ONE-RESPONSE')) unjudged(run.noAnswer, 'PLUGIN-IO-ONE-RESPONSE');
      failFor(ctx, { requirement: 'PLUGIN-IO-ONE-RESPONSE', message: `${run.noAnswer}; every request must get one CodeGeneratorResponse`, exchange: run.exchange });
      return;
    }
    if (run.result.exitCode !== 0) {
      failFor(ctx, {
        requirement: 'PLUGIN-ERROR-EXIT-ZERO',
        message: `the plugin reported a problem with the schema (${label}) by exiting with status ${run.result.exitCode ?? run.result.signal} instead of setting CodeGeneratorResponse.error and exiting 0`,
        expected: { exitCode: 0, error: 'non-empty' },
        actual: { exitCode: run.result.exitCode, stderr: run.result.stderr },
        exchange: run.exchange,
      });
      return;
    }
    if (!run.response) {
      if (!wants(ctx, 'PLUGIN-IO-RESPONSE-DECODES')) unjudged(`its output is no CodeGeneratorResponse: ${run.decodeError ?? 'nothing decoded'}`, 'PLUGIN-IO-RESPONSE-DECODES');
      failFor(ctx, { requirement: 'PLUGIN-IO-RESPONSE-DECODES', message: `stdout is not a CodeGeneratorResponse: ${run.decodeError ?? 'nothing decoded'}`, exchange: run.exchange });
      return;
    }
    if (run.strayOutput) {
      failFor(ctx, { requirement: 'PLUGIN-IO-STDOUT-ONLY-RESPONSE', message: `stdout holds ${run.strayOutput.bytes} byte(s) ${run.strayOutput.position} the response: ${JSON.stringify(run.strayOutput.head)}`, actual: run.strayOutput, exchange: run.exchange });
    }
    if (!run.response.error) {
      throw new SpecgateError('SG_CONFIG', `the plugin generated code for ${label}, which the target names as a request it cannot handle; check vars.plugin_error_${via}`);
    }
  },
});
