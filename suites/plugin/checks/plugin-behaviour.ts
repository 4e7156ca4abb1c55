import { isDeepStrictEqual } from 'node:util';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { SpecgateError } from '../../../src/errors.js';
import { encodeRequest } from '../../../reference/plugin/codec.js';
import type { CodeGeneratorRequest, CodeGeneratorResponse } from '../../../reference/plugin/types.js';
import { appendUnknownFields, lengthDelimited, reorderRequest, varintField, type FieldOrder } from '../../../reference/plugin/wire.js';
import { FIXTURE_ARGS, NO_ARGS, SCHEMA_ERROR_ARGS, type FixtureArgs, type SchemaErrorArgs } from './arguments.js';
import { isFixtureName, loadFixture, requestFor, type FixtureName } from './fixtures.js';
import { failFor, outcomeText, pluginFixtures, responseFiles, runPlugin, succeeded, wants, type PluginRun } from './support.js';

/** The fixture a behaviour check runs on: with.fixture, else `shop` when allowed, else the first allowed. */
function baseFixture(ctx: CheckContext, args: FixtureArgs): FixtureName {
  if (args.fixture !== undefined) return args.fixture;
  const allowed = pluginFixtures(ctx);
  return allowed.includes('shop') ? 'shop' : (allowed[0] ?? 'shop');
}

/** A baseline run that must succeed for a comparison to mean anything. */
async function baseline(ctx: CheckContext, req: CodeGeneratorRequest, label: string): Promise<{ run: PluginRun; stable: boolean }> {
  const first = await runPlugin(ctx, encodeRequest(req), label, req);
  if (!succeeded(first)) {
    throw new SpecgateError('SG_TARGET_PROTOCOL', `the plugin does not answer the plain request (${label}) successfully (${outcomeText(first)}), so this behaviour cannot be compared; see PLUGIN-ERROR-EXIT-ZERO and the exchanges`);
  }
  const second = await runPlugin(ctx, encodeRequest(req), `${label}, again`, req);
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
    const runs: PluginRun[] = [];
    for (let i = 0; i < 3; i++) runs.push(await runPlugin(ctx, bytes, `fixture ${name}, run ${i + 1}`, req));
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
    if (!first.response) throw new SpecgateError('SG_TARGET_PROTOCOL', `not judged: PLUGIN-DETERMINISTIC: no run on fixture ${name} gave a response to compare (${outcomeText(first)}); see PLUGIN-ERROR-EXIT-ZERO and the exchanges`);
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

/** The names of the files a response creates (insertions and nameless chunks name none of their own). */
function createdNames(res: CodeGeneratorResponse | undefined): Set<string> {
  return new Set((res?.file ?? []).filter((f) => f.name && !f.insertion_point).map((f) => f.name ?? ''));
}

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
 * the import alone, for both files, and for the main file alone, and the SETS of files written
 * are compared: asked for the main file alone, the plugin may write only what asking for both
 * writes beyond what the import alone gives (the main file's own output), plus files it writes
 * whatever it is asked (written for every request of every pair, such as a runtime file). So
 * output for an import is caught under any name, not only when it is identical. A pair whose
 * import alone gives nothing of its own cannot tell and is passed over; when no pair can tell,
 * the case errors with that reason.
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
        return runPlugin(ctx, encodeRequest(req), `${pair.fixture} fixture, file_to_generate ${files.join(' + ')}`, req);
      };
      const importedOnly = await ask([pair.imported]);
      const both = await ask([pair.imported, pair.main]);
      const one = await ask([pair.main]);
      for (const r of [importedOnly, both, one]) {
        if (!succeeded(r)) throw new SpecgateError('SG_TARGET_PROTOCOL', `the plugin does not answer the ${pair.fixture} fixture successfully (${outcomeText(r)}), so file_to_generate cannot be checked`);
      }
      answers.push({ pair, importedOnly, both, one });
    }
    // files written whatever is asked: in the answer to every request of every pair
    const sets = answers.flatMap((a) => [a.importedOnly, a.both, a.one].map((r) => createdNames(r.response)));
    const always = new Set([...(sets[0] ?? [])].filter((n) => sets.every((s) => s.has(n))));
    let told = 0;
    for (const { pair, importedOnly, both, one } of answers) {
      const forImport = createdNames(importedOnly.response);
      if ([...forImport].every((n) => always.has(n))) continue;
      told++;
      const forBoth = createdNames(both.response);
      const forMain = [...forBoth].filter((n) => !forImport.has(n));
      const extra = [...createdNames(one.response)].filter((n) => !always.has(n) && !forMain.includes(n));
      if (extra.length) {
        failFor(ctx, {
          requirement: 'PLUGIN-FILE-TO-GENERATE',
          message: `asked for ${pair.main} only, the plugin also wrote ${extra.join(', ')}: not the output ${pair.main} gets when both files are asked for, so output for ${pair.kind} ${pair.imported}, which is not in file_to_generate`,
          expected: { files: [...forMain, ...always].sort(), forImportAlone: [...forImport].sort() },
          actual: [...createdNames(one.response)].sort(),
          exchange: one.exchange,
        });
      }
    }
    if (told === 0) {
      throw new SpecgateError('SG_CONFIG', `the plugin generates nothing of its own for ${IMPORT_PAIRS.map((p) => p.imported).join(' or ')} alone, so whether it generates code for imported files cannot be told`);
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
    // without an answer, or without a response in it, whether `error` was used cannot be told
    const unjudged = (why: string): never => {
      throw new SpecgateError('SG_TARGET_PROTOCOL', `not judged: PLUGIN-ERROR-EXIT-ZERO: ${why} (${label}), so whether it reports the problem in CodeGeneratorResponse.error cannot be told`);
    };
    if (run.noAnswer !== undefined) {
      if (!wants(ctx, 'PLUGIN-IO-ONE-RESPONSE')) unjudged(run.noAnswer);
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
      if (!wants(ctx, 'PLUGIN-IO-RESPONSE-DECODES')) unjudged(`its output is no CodeGeneratorResponse: ${run.decodeError ?? 'nothing decoded'}`);
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
