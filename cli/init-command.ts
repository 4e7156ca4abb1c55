import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { SpecgateError, isSpecgateError } from '../src/errors.js';
import { loadSuites } from '../src/engine/load-suites.js';
import { isTimeBound } from '../src/engine/time-bound.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import { fromRoot } from '../src/paths.js';
import { refuseLinks, writeFileNoFollow } from '../src/reporting/output-path.js';
import { profileVars } from '../src/engine/loader/target-needs.js';
import { agentActionUses, specHeaderNames } from '../src/targets/profile-writer/agent-uses.js';
import { initProfileText } from '../src/targets/profile-writer/init-profile.js';
import { casesOfSelection } from '../src/engine/selection.js';
import { selectionChoice, selectionsOf, type SelectionFlags } from './selection-flags.js';
import { didYouMean } from './suggest.js';

/** `--part platform --requirement 'EVENTS-MON-ID-STR'`: the selection flags as a command line takes them again. */
function selectionFlags(opts: SelectionFlags): string {
  const quote = (v: string): string => (/^[A-Za-z0-9_.=:\/-]+$/.test(v) ? v : `'${v.replace(/'/g, "'\\''")}'`);
  return [...(opts.part ?? []).map((p) => `--part ${quote(p)}`), ...(opts.requirement ?? []).map((r) => `--requirement ${quote(r)}`)].join(' ');
}

/** The `select:` a profile records for the selection flags: the suite's parts, and the requirement patterns. */
function recordedSelect(opts: SelectionFlags, suite: string): { parts?: string[]; requirements?: string[] } {
  const parts = selectionChoice(opts, [suite]).parts?.[suite];
  return { ...(parts?.length ? { parts } : {}), ...(opts.requirement?.length ? { requirements: [...new Set(opts.requirement)] } : {}) };
}

/** How a profile at `file` (or printed, relative to the working folder) names specgate's profile schema. */
export function schemaPathFor(file: string | undefined): string {
  const schema = fromRoot('schemas', 'target-profile.schema.json');
  return relative(file ? dirname(resolve(file)) : process.cwd(), schema) || schema;
}

/**
 * `specgate init <suite> [--out file]`: writes a commented target profile for the suite, with
 * every variable it declares, to fill in. Printed when no file is given; an existing file is
 * replaced only with --force, so a filled-in profile is never lost to a second init. With
 * `--part` / `--requirement`, the profile is for a run of that selection: it records it
 * (`select:`, which a run with the profile judges when its command line selects nothing), and only
 * what its cases need is marked REQUIRED (the user agent only when they act as a user).
 */
export function initCommand(modules: SuiteModule[], suite: string, opts: { out?: string; force?: boolean } & SelectionFlags, out: NodeJS.WritableStream = process.stdout): number {
  const known = modules.map((m) => m.name);
  if (!known.includes(suite)) throw new SpecgateError('SG_USAGE', `no suite named "${suite}"${didYouMean(suite, known)}; known suites: ${known.join(', ')}`);
  if (opts.out) refuseLinks(`--out ${opts.out}`, opts.out);
  if (opts.out && existsSync(opts.out) && !opts.force) throw new SpecgateError('SG_USAGE', `${opts.out} already exists; give another --out, or --force to replace it`);
  const { suites, registry } = loadSuites(modules, [suite]);
  const whole = suites[0];
  if (!whole) throw new SpecgateError('SG_INTERNAL', `suite ${suite} did not load`);
  const selection = selectionsOf([whole], opts).get(suite);
  // the facts below are of the cases the run will judge: every case, or those of the selection
  const loaded = selection ? { ...whole, cases: casesOfSelection(whole.cases, selection) } : whole;
  // required as a run will ask for it: declared required, or read by a case that cannot run without it
  const vars = profileVars(whole, registry, loaded.cases);
  const title = modules.find((m) => m.name === suite)?.title;
  const text = initProfileText({
    suite,
    ...(title ? { title } : {}),
    vars,
    actions: agentActionUses(loaded),
    timeBound: loaded.cases.filter((c) => !c.skip && isTimeBound(c)).map((c) => c.id),
    headers: specHeaderNames(loaded),
    apiTable: Boolean(loaded.api),
    database: {
      commands: loaded.cases.filter((c) => !c.skip && c.steps.some((st) => 'command' in st)).map((c) => c.id),
      queries: loaded.cases.filter((c) => !c.skip && c.steps.some((st) => 'query' in st)).map((c) => c.id),
    },
    schemaPath: schemaPathFor(opts.out),
    ...(selection ? { selection: { flags: selectionFlags(opts), cases: new Set(loaded.cases.map((c) => c.id)), select: recordedSelect(opts, suite) } } : {}),
  });
  if (!opts.out) {
    out.write(text);
    return 0;
  }
  try {
    writeFileNoFollow(`--out ${opts.out}`, opts.out, text);
  } catch (e) {
    if (isSpecgateError(e)) throw e;
    throw new SpecgateError('SG_USAGE', `cannot write ${opts.out} (${(e as NodeJS.ErrnoException).code ?? String(e)}); give a writable --out path`, {}, { cause: e });
  }
  const required = vars.filter((v) => v.required).length;
  const database = loaded.cases.some((c) => !c.skip && c.steps.some((st) => 'command' in st || 'query' in st));
  const what = [...(required || !database ? [`its ${required} required variable${required === 1 ? '' : 's'}`] : []), ...(database ? ['its database.url'] : [])].join(' and ');
  process.stderr.write(`specgate: wrote ${opts.out}: fill in ${what} (marked REQUIRED), then \`specgate validate ${opts.out}\`\n`);
  return 0;
}
