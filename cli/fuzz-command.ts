import { resolve } from 'node:path';
import { SpecgateError, SpecgateErrorList } from '../src/errors.js';
import { baselineTarget, loadBaseline, type Baseline } from '../src/engine/baseline.js';
import { loadSuites } from '../src/engine/load-suites.js';
import { randomSeed } from '../src/engine/runtime/seeds.js';
import type { FuzzOptions, FuzzResult, SuiteModule } from '../src/engine/suite-module.js';
import type { Gating } from '../src/engine/model.js';
import { gates, gatingOf, gatingWords } from '../src/engine/verdicts.js';
import { createExecRunner } from '../src/targets/exec-runner.js';
import { watchInterrupts } from './interrupt.js';
import { quote, withoutOptions } from './replay.js';
import { foldedNote, type SeedValue } from './seed-value.js';
import { didYouMean } from './suggest.js';
import { planTargets } from './target-choice.js';
import { makeFolderNoFollow } from '../src/reporting/output-path.js';

/**
 * `specgate fuzz <suite>`: a generated-input search against the suite's target; exit 1 on a
 * finding at the gating level, by `run`'s rules: MUST, SHOULD with --strict, STRICTER with
 * --stricter (a finding below it is reported, and exit stays 0). SIGINT or SIGTERM stops the
 * search: what was found is still written, and the exit code is 130 or 143.
 */
export async function fuzzCommand(
  modules: SuiteModule[],
  suite: string,
  opts: { runs?: number; seed?: SeedValue; path?: string; concurrency?: number; target?: string; out?: string; baseline?: string; strict?: boolean; stricter?: boolean; targetFlags: Record<string, string> },
  argv: string[],
): Promise<number> {
  const m = modules.find((x) => x.name === suite);
  if (!m) throw new SpecgateError('SG_USAGE', `no suite named "${suite}"${didYouMean(suite, modules.map((x) => x.name))}; known suites: ${modules.map((x) => x.name).join(', ')}`);
  if (!m.fuzz) throw new SpecgateError('SG_USAGE', `suite ${suite} has no fuzzer`);
  const expected = opts.baseline ? expectedRequirements(modules, suite, loadBaseline(opts.baseline), opts.baseline) : undefined;
  const gating = gatingOf(opts.strict ?? false, opts.stricter ?? false);
  const gatingIds = gatingRequirements(modules, suite, gating);
  const plan = planTargets(modules, { suites: [suite], ...(opts.target ? { target: opts.target } : {}), flags: opts.targetFlags });
  if (plan.problems.length) throw new SpecgateErrorList(plan.problems);
  const section = plan.targets[suite]?.section;
  let vars = section?.vars ?? {};
  let exec = section?.exec;
  let stop = async (): Promise<void> => {};
  if (!section) {
    if (!m.reference) throw new SpecgateError('SG_USAGE', `give the ${suite} target to fuzz (see \`specgate fuzz --help\`)`);
    const { VirtualClock } = await import('../src/engine/clock.js');
    const running = await m.reference.start({ clock: new VirtualClock() });
    vars = running.vars;
    exec = running.exec;
    stop = () => running.stop();
  }
  const outDir = resolve(opts.out ?? 'reports');
  // counterexamples are written into it by name: never through a link planted on the way
  makeFolderNoFollow(`--out ${opts.out ?? 'reports'}`, outDir);
  const seed = opts.seed?.seed ?? randomSeed();
  const folded = foldedNote(opts.seed);
  if (folded) process.stdout.write(`${folded}\n`);
  const interrupts = watchInterrupts('stopping the search and writing what was found');
  try {
    const fuzzOptions: FuzzOptions = {
      target: { vars, exec, runner: createExecRunner() },
      runs: opts.runs ?? 1000,
      seed,
      ...(opts.path ? { path: opts.path } : {}),
      concurrency: opts.concurrency ?? 2,
      outDir,
      ...(expected ? { expected } : {}),
      gating: gatingIds,
      commandLine: fuzzCommandLine(argv),
      signal: interrupts.signal,
      log: (line) => process.stderr.write(`${line}\n`),
    };
    const result = await m.fuzz(fuzzOptions);
    process.stdout.write(resultText(result, outDir, gating));
    // an interrupted search is no verdict, whatever it found before: 130 or 143
    return interrupts.exitCode() ?? (result.ok ? 0 : 1);
  } finally {
    // a second signal while the reference stops still quits at once
    try {
      await stop();
    } finally {
      interrupts.dispose();
    }
  }
}

/**
 * The suite's requirements a baseline expects to fail. Entries naming cases (bare or written
 * `<suite>/<case-id>`), or requirements of other suites (one baseline may serve a whole gate), do
 * not apply to a fuzz run; an expired entry is not applied (its violations are findings again, as
 * `run` fails on it); an ID no suite has is an error, since a typo would silently filter nothing.
 */
function expectedRequirements(modules: SuiteModule[], suite: string, baseline: Baseline, file: string): Set<string> {
  const { suites } = loadSuites(modules, modules.map((m) => m.name));
  const expired = new Set(baseline.expired().map((e) => e.id));
  const out = new Set<string>();
  for (const e of baseline.entries) {
    const target = baselineTarget(e.id, suites);
    if (target.kind === 'unknown') throw new SpecgateError('SG_CONFIG', `${file}: "${e.id}" is no requirement of any suite; fix or remove the entry (\`specgate list --suite ${suite}\` lists this suite's)`);
    if (target.kind !== 'requirement' || target.suite !== suite) continue;
    if (expired.has(e.id)) {
      process.stderr.write(`baseline entry ${e.id} expired on ${String(e.expires)}: its violations are reported again\n`);
      continue;
    }
    out.add(e.id);
  }
  return out;
}

/** The requirements of the suite whose findings fail the search at this gating level. */
function gatingRequirements(modules: SuiteModule[], suite: string, gating: Gating): Set<string> {
  const { suites } = loadSuites(modules, [suite]);
  return new Set((suites[0]?.requirements ?? []).filter((r) => gates(r.level, gating)).map((r) => r.id));
}

/**
 * What the CLI prints of a result: the fuzzer's message, any file or replay command it does not
 * already name (each is printed once), and where the files went.
 */
export function resultText(result: FuzzResult, outDir: string, gating: Gating): string {
  const lines = [result.message];
  for (const f of result.files) if (!result.message.includes(f)) lines.push(`  wrote ${f}`);
  if (result.replay && !result.message.includes(result.replay)) lines.push(`  replay: ${result.replay}`);
  if (result.files.length > 0) lines.push(`counterexample files are in ${outDir} (new names each run: earlier files are never replaced)`);
  if (result.ok && result.files.length > 0) lines.push(`no finding at the gating level (${gatingWords(gating)}): exit 0`);
  return `${lines.join('\n')}\n`;
}

/** This command line without the options a replay sets itself, shell-quoted so it can be pasted. */
function fuzzCommandLine(argv: string[]): string {
  return ['specgate', ...withoutOptions(argv.slice(2), ['--seed', '--path', '--runs'])].map(quote).join(' ');
}
