import { relative, resolve, sep } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { SpecgateErrorList, asSpecgateError, exitCodeFor } from '../src/errors.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import type { fuzzCommand } from './fuzz-command.js';
import type { initCommand as initCommandType } from './init-command.js';
import type { listCommand as listCommandType } from './list-command.js';
import type { mergeCommand } from './merge-command.js';
import type { runCommand } from './run-command.js';
import type { RecordFlags } from './record-command.js';
import type { ServeFlags } from './serve-command.js';
import { knownSuites } from './suites.js';
import { builtinSuiteNames } from '../suites/index.js';
import { fromRoot } from '../src/paths.js';
import { tuneV8 } from './v8-tuning.js';
import { parseSeed } from './seed-value.js';

// Each command's code is imported when the command runs: `--version` and `--help` load none of it.

const list = (v: string, prev: string[] = []): string[] => [...prev, ...v.split(',').map((s) => s.trim()).filter(Boolean)];
const repeatable = (v: string, prev: string[] = []): string[] => [...prev, v];
/**
 * A whole-number option within its allowed range: `--concurrency 0` or `--runs 1e10` is a usage
 * error up front (exit 2), never a run that hangs, exhausts memory or silently does nothing.
 */
const int =
  (name: string, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  (v: string): number => {
    const n = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} takes a whole number from ${min} to ${max}, not "${v}"`);
    if (n < min || n > max) throw new InvalidArgumentError(`${name} takes a whole number from ${min} to ${max}, not ${n}`);
    return n;
  };
/** A request rate: a positive decimal number of requests per second, up to 10,000. */
function rate(v: string): number {
  const n = /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
  if (!(n > 0 && n <= 10_000)) throw new InvalidArgumentError(`--rate takes requests per second, a number above 0 and at most 10000 (e.g. 5 or 0.5), not "${v}"`);
  return n;
}
/** Case timeouts up to a day; property runs and fuzz requests up to a million per run. */
const DAY_MS = 86_400_000;
const MAX_RUNS = 1_000_000;

/** --suite-module is read before commands are built: it adds suites, and suites add flags. */
function preScanModules(argv: string[]): string[] {
  const out: string[] = [];
  argv.forEach((a, i) => {
    if (a === '--suite-module' && argv[i + 1]) out.push(argv[i + 1] as string);
    else if (a.startsWith('--suite-module=')) out.push(a.slice('--suite-module='.length));
  });
  return out;
}

/**
 * The built-in suites a command line needs, when it names them: none for `--version` and the
 * top-level help and `record`, those of `--suite` for `run` and `list`, those whose folders hold the
 * files of `validate`; undefined (all) otherwise, and for a
 * command's own help, which lists every suite's target flags. Loading a suite loads its
 * checks, reference and generators, so the CLI starts faster on what it does not load.
 */
export function suitesNeeded(args: readonly string[]): string[] | undefined {
  const [command] = args;
  // `record` judges nothing: it needs no suite
  if (command === undefined || command.startsWith('-') || command === 'record') return [];
  if (command === 'validate') return validatedSuites(args.slice(1));
  if (command !== 'run' && command !== 'list') return undefined;
  const named: string[] = [];
  for (const [i, a] of args.entries()) {
    if (a === '--') break;
    if (a === '--help' || a === '-h') return undefined;
    if (a === '--suite' && args[i + 1] !== undefined) named.push(...list(args[i + 1] as string));
    else if (a.startsWith('--suite=')) named.push(...list(a.slice('--suite='.length)));
  }
  return named.length > 0 ? named : undefined;
}

/** The options of `validate` that take a value (the word after them is not a file). */
const VALIDATE_VALUES = new Set(['--part', '--requirement', '--suite-module']);

/**
 * The built-in suites `validate <files>` checks files of: a file inside a built-in suite's folder
 * (`suites/<name>/...`) is checked with that suite alone; any other file (a profile, a baseline,
 * kept cases naming their suites) may need every suite, and so does a command line that asks for help.
 */
function validatedSuites(rest: readonly string[]): string[] | undefined {
  const root = fromRoot('suites');
  const named = new Set<string>();
  for (const [i, a] of rest.entries()) {
    if (a === '--help' || a === '-h') return undefined;
    if (a.startsWith('-') || VALIDATE_VALUES.has(rest[i - 1] as string)) continue;
    const [suite, ...inside] = relative(root, resolve(a)).split(sep);
    if (suite === undefined || !builtinSuiteNames.includes(suite) || inside.length === 0) return undefined;
    named.add(suite);
  }
  return named.size > 0 ? [...named] : undefined;
}

/** Whether every long option on the command line is one the command, as built, takes. */
function optionsKnown(program: Command, args: readonly string[]): boolean {
  const cmd = program.commands.find((c) => c.name() === args[0]);
  if (!cmd) return true;
  const known = new Set(['--help', ...cmd.options.flatMap((o) => (o.long ? [o.long] : []))]);
  for (const a of args.slice(1)) {
    if (a === '--') break;
    if (a.startsWith('--') && !known.has(a.split('=')[0] as string)) return false;
  }
  return true;
}

function addTargetFlags(cmd: Command, modules: SuiteModule[]): void {
  for (const m of modules) for (const o of m.targetOptions ?? []) cmd.addOption(new Option(`--${o.flag} <${o.valueName}>`, `${o.description} (suite ${m.name})`));
}

function targetFlags(cmd: Command, modules: SuiteModule[]): Record<string, string> {
  const opts = cmd.opts<Record<string, unknown>>();
  const out: Record<string, string> = {};
  for (const m of modules)
    for (const o of m.targetOptions ?? []) {
      const key = o.flag.replace(/-([a-z])/g, (_x, c: string) => c.toUpperCase());
      const v = opts[key];
      if (typeof v === 'string') out[o.flag] = v;
    }
  return out;
}

/**
 * The program with every command. `list` takes its suites from `listSuites` when it needs them
 * (a listing kept from an earlier one needs none); `builtinOnly`: no `--suite-module` adds any.
 */
function build(modules: SuiteModule[], argv: string[], setCode: (c: number) => void, listSuites: () => Promise<SuiteModule[]> = async () => modules, builtinOnly = false, validateOf?: readonly string[]): Command {
  const program = new Command('specgate')
    .description('Protocol conformance harness: a pass/fail verdict per requirement of a spec, as JUnit for CI gates')
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)');
  const withModules = (c: Command): Command => c.option('--suite-module <file>', 'load an extra suite from a compiled module exporting `suite`', repeatable);

  const run = withModules(program.command('run').description('run suites against a target (default: the bundled reference implementations)'))
    .option('--suite <names>', 'suites to run, comma-separated (default: all, or those the target names)', list)
    .option('--case <ids>', 'only these cases (id or suite/id), comma-separated; the requirements they do not cover are reported not selected', list)
    .option('--side <name>', "judge one side of the protocol only (e.g. server, client; or suite=side): the other side's requirements are reported not applicable", list)
    .option('--part <names>', "judge only these parts of a suite (e.g. platform, or suite=part; comma-separated, repeatable; `specgate list` names each suite's parts): the cases covering their requirements run, the other requirements are reported not selected", list)
    .option('--requirement <ids>', 'judge only these requirements: IDs or globs such as EVENTS-PLAT-* (comma-separated, repeatable; adds to --part; !<glob> leaves its matches out): the cases covering them run, the other requirements are reported not selected', list)
    .option('--target <profile.yaml>', 'target profile: base URLs, credentials, clock hook, user agent, database; or har:<file> to judge recorded traffic')
    .option('--report <format=path>', 'write a report: junit=path, json=path, tap=path, html=path (repeatable; default junit=reports/junit.xml and json=reports/results.json)', repeatable)
    .option('--seed <value>', 'seed for generated inputs (printed with every run): a whole number from 0 to 2147483647, or any other value (a CI run ID, a commit SHA), folded into that range', parseSeed)
    .option('--runs <n>', 'runs per property (overrides the cases)', int('--runs', 1, MAX_RUNS))
    .option('--path <path>', 'fast-check replay path (from a printed replay command)')
    .option('--strict', 'SHOULD-level failures fail the gate too')
    .option('--stricter', 'STRICTER-level failures (expectations beyond the spec) fail the gate too; implies --strict')
    .option('--require-judged <percent>', 'the share of gating requirements that must be judged (passed or failed) for a conformant verdict; less is exit 4 (default: more than none)', int('--require-judged', 1, 100))
    .option('--baseline <file>', 'YAML file of expected failures')
    .option('--concurrency <n>', 'cases in flight at once, over all the suites of the run (default 8)', int('--concurrency', 1, 1024))
    .option('--include-slow', 'let time pass for real in time-bound cases when the target has no clock hook')
    .option('--case-timeout <ms>', 'default per-case timeout in ms (default 60000)', int('--case-timeout', 1, DAY_MS))
    .option('--max-wait <seconds>', 'how long one request waits out a target\'s throttling (429, or 503 with Retry-After) before its case is untested "throttled" (default 30)', int('--max-wait', 0, DAY_MS / 1000))
    .option('--rate <requests/s>', 'send at most this many requests per second to external targets (for targets with quotas)', rate)
    .option('--no-shrink', 'report the first failing generated input without shrinking it (faster gates; still replayable)')
    .option('--no-color', 'no ANSI colors on the console')
    .option('--verbose', 'one line per case and full values')
    .option('--regressions <dir>', 'where a failed property case is also written as a regression case holding the exact input (default: a regressions folder beside the reports)')
    .option('--cases <dir>', 'also run the case files under this folder (repeatable): regression cases a failed run wrote, or your own, each naming its suite with suite:', repeatable)
    .option('--shard <k/n>', 'run only shard k of n of the selected cases (the same split on every machine; combine the shards with specgate merge)')
    .option('--shard-timings <results.json>', 'balance the shards by the case durations of an earlier run\'s JSON report');
  addTargetFlags(run, modules);
  run.action(async (o: Record<string, unknown>) => {
    setCode(await (await import('./run-command.js')).runCommand(modules, { ...o, targetFlags: targetFlags(run, modules) } as Parameters<typeof runCommand>[1], argv));
  });

  withModules(program.command('list').description('list suites, requirements (with coverage) and cases'))
    .option('--suite <names>', 'only these suites', list)
    .option('--json', 'machine-readable output')
    .option('--vars', 'the variables each suite takes from a target (profile vars:), with the cases that read them')
    .option('--trace', "every statement of the specification parts each suite judges (its trace.yaml), by section: the requirements that judge it, or why none can")
    .option('--passive', 'the gating requirements a recording (--target har:) can settle, per suite, with the cases and passive rules that settle each')
    .option('--cases <dir>', 'list the case files under this folder with the suites they name (repeatable), as run --cases runs them', repeatable)
    .option('--part <names>', 'only what `run --part` would judge: the requirements of these parts (or suite=part) and the cases covering them; with --vars, what those cases need', list)
    .option('--requirement <ids>', 'only what `run --requirement` would judge: these IDs or globs (!<glob> leaves out) and the cases covering them', list)
    .action(async (o: Parameters<typeof listCommandType>[1]) => setCode(await (await import('./list-command.js')).listCommand(listSuites, o, builtinOnly)));

  withModules(program.command('serve').description('start a suite\'s reference implementation and print its URLs until stopped'))
    .argument('<suite>')
    .option('--port <n>', 'listen on this port (default: an ephemeral one)', int('--port', 0, 65535))
    .option('--profile <file>', 'also write a target profile that runs the suite against it (its secrets go to an env file beside it, readable by its owner only)')
    .option('--public-url <url>', 'the origin clients reach it at, e.g. behind a forwarding proxy: its variables and answers name that origin')
    .action(async (suite: string, o: ServeFlags) => setCode(await (await import('./serve-command.js')).serveCommand(modules, suite, o)));

  program
    .command('record')
    .description('record traffic: a proxy on 127.0.0.1 that forwards every request to --upstream and writes each exchange to a HAR file (credentials masked), to judge later with `run --target har:<file>`')
    .requiredOption('--upstream <url>', 'where requests are forwarded: http:// or https://, optionally with a base path')
    .requiredOption('--har <file>', 'the HAR 1.2 file to write (rewritten after every exchange and when stopped)')
    .option('--listen <port>', 'listen on this port of 127.0.0.1 (default: an ephemeral one; the URL to give the client is printed)', int('--listen', 0, 65535))
    .option('--max-body <bytes>', 'bytes of each request and answer body kept in the file (default 1048576; the rest is forwarded, not kept, and the body is marked cut)', int('--max-body', 0, 1024 * 1024 * 1024))
    .option('--count <n>', 'stop after this many exchanges', int('--count', 1, MAX_RUNS))
    .option('--duration <seconds>', 'stop after this many seconds', int('--duration', 1, DAY_MS / 1000))
    .addHelpText('after', '\nStops on Ctrl-C or SIGTERM too; the file then holds every finished exchange. Exit 0 when the file is written, 2 when it cannot be.')
    .action(async (o: RecordFlags) => setCode(await (await import('./record-command.js')).recordCommand(o)));

  withModules(program.command('init').description('write a commented target profile for a suite, with every variable it takes, to fill in'))
    .argument('<suite>')
    .option('--out <file>', 'write it here (default: print it)')
    .option('--force', 'replace --out when it exists')
    .option('--part <names>', 'a profile for a run of these parts only (`run --part`): only what their cases need is marked REQUIRED', list)
    .option('--requirement <ids>', 'a profile for a run of these requirements only (`run --requirement`: IDs or globs, !<glob> leaves out)', list)
    .action(async (suite: string, o: Parameters<typeof initCommandType>[2]) => setCode((await import('./init-command.js')).initCommand(modules, suite, o)));

  withModules(program.command('validate').description('check suite files, target profiles and baselines without running anything'))
    .argument('<files...>')
    .option('--part <names>', 'check a target profile for a run of these parts only (`run --part`)', list)
    .option('--requirement <ids>', 'check a target profile for a run of these requirements only (`run --requirement`)', list)
    .action(async (files: string[], o: { part?: string[]; requirement?: string[] }) =>
      setCode(
        validateOf
          ? await (await import('./validate-builtin.js')).validateBuiltin(validateOf, files, process.stdout, o)
          : await (await import('./validate-command.js')).validateCommand(modules, files, process.stdout, o),
      ),
    );

  withModules(program.command('merge').description('judge the results.json of several shards (or runs) as one run, by the installed suites: verdicts, reports and the exit code of an unsharded run'))
    .argument('<results...>')
    .option('--report <format=path>', 'write a report: junit=path, json=path, tap=path, html=path (repeatable; default junit=reports/junit.xml and json=reports/results.json)', repeatable)
    .option('--strict', 'SHOULD-level failures fail the gate too')
    .option('--stricter', 'STRICTER-level failures (expectations beyond the spec) fail the gate too; implies --strict')
    .option('--require-judged <percent>', 'the share of gating requirements that must be judged (passed or failed) for a conformant verdict; less is exit 4 (default: more than none)', int('--require-judged', 1, 100))
    .option('--baseline <file>', 'YAML file of expected failures')
    .option('--no-color', 'no ANSI colors on the console')
    .option('--verbose', 'one line per case and full values')
    .option('--allow-version-mix', 'merge results written by another specgate version or suite version too, with a warning (the installed suites still judge them)')
    .option('--allow-partial', 'judge results that lack cases of their suites (runs with --case or --side), with a warning; without it they are refused')
    .option('--cases <dir>', 'the case files the runs loaded with run --cases (repeatable): their cases are cases of the suites they name', repeatable)
    .action(async (files: string[], o: Parameters<typeof mergeCommand>[2]) => setCode(await (await import('./merge-command.js')).mergeCommand(modules, files, o)));

  const fuzz = withModules(program.command('fuzz').description('search for inputs that break a target with generated valid requests'))
    .argument('<suite>')
    .option('--runs <n>', 'generated requests (default 1000)', int('--runs', 1, MAX_RUNS))
    .option('--seed <value>', 'seed: a whole number from 0 to 2147483647, or any other value, folded into that range', parseSeed)
    .option('--path <path>', 'fast-check replay path (from a printed replay command)')
    .option('--concurrency <n>', 'processes in flight (default 2)', int('--concurrency', 1, 256))
    .option('--target <profile.yaml>', 'target profile')
    .option('--out <dir>', 'where counterexamples are written (default reports/)')
    .option('--baseline <file>', 'YAML file of expected failures: violations of the requirements it lists are counted, not reported')
    .option('--strict', 'SHOULD-level findings fail the search too (without it they are reported and the search goes on)')
    .option('--stricter', 'STRICTER-level findings fail the search too; implies --strict');
  addTargetFlags(fuzz, modules);
  fuzz.action(async (suite: string, o: Record<string, unknown>) => {
    setCode(await (await import('./fuzz-command.js')).fuzzCommand(modules, suite, { ...o, targetFlags: targetFlags(fuzz, modules) } as Parameters<typeof fuzzCommand>[2], argv));
  });
  return program;
}

/**
 * Runs the CLI; returns the exit code (0 conformant, 1 failures, 2 usage/config/suite error,
 * 3 harness or target fault, 130/143 a run or fuzz search interrupted by SIGINT/SIGTERM).
 */
/**
 * A reader that stops early (`specgate list | head`) closes the pipe: nothing more is wanted,
 * so the command ends quietly with what it had, instead of crashing on EPIPE.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

export async function main(argv: string[]): Promise<number> {
  let code = 0;
  tuneV8(argv.slice(2));
  quietOnClosedPipe(process.stdout);
  try {
    const args = argv.slice(2);
    const extra = preScanModules(args);
    const setCode = (c: number): void => {
      code = c;
    };
    const only = suitesNeeded(args);
    // `list` loads its suites when it needs them: a listing kept from an earlier one needs none
    const asksHelp = args.some((a) => a === '--help' || a === '-h');
    const lazyList = args[0] === 'list' && extra.length === 0 && !asksHelp;
    // `validate` of files inside built-in suites' folders loads those suites' code only when their kept shapes cannot stand for it
    const lazyValidate = args[0] === 'validate' && extra.length === 0 && !asksHelp && only !== undefined && only.length > 0;
    let program = lazyList
      ? build([], argv, setCode, () => knownSuites(extra, only), true)
      : lazyValidate
        ? build([], argv, setCode, undefined, false, only)
        : build(await knownSuites(extra, only), argv, setCode, undefined, extra.length === 0);
    // a flag of a suite left unloaded (a target flag of another suite): load all and let the
    // command say what it says of it with every suite there
    if (only && !optionsKnown(program, args)) program = build(await knownSuites(extra), argv, setCode);
    await program.parseAsync(argv);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    const err = asSpecgateError(e);
    const all = err instanceof SpecgateErrorList ? err.errors : [err];
    for (const x of all) process.stderr.write(`specgate: error [${x.code}]: ${x.message}\n`);
    if (err.code === 'SG_INTERNAL' && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n(this is a bug in specgate; please report it with the command you ran)\n`);
    return exitCodeFor(err.code);
  }
}
