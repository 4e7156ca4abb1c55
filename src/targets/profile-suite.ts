import { PLACEHOLDER } from './declared-vars.js';
import { commandArgv, execFor } from './command-line.js';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { formatLocation, type YamlSource } from '../engine/loader/yaml-source.js';
import type { HttpRequestSpec, SourceLocation, Step } from '../engine/model.js';
import { SpecgateError } from '../errors.js';
import { PAGE_STEP_KINDS, type PageStep } from './browser/page-steps.js';
import { databaseUrlProblem } from './database/database-url.js';
import type { DatabaseSection } from './database/types.js';
import { referencedVariables, resolveDeep, resolveVariables } from '../engine/expressions.js';
import type { TargetSection } from './target-section.js';
import type { ExecConfig } from './types.js';

/** What building a section needs from the loader. */
export interface SuiteBuildContext {
  src: YamlSource;
  suite: string;
  /** The profile's folder: relative executable paths are taken from there. */
  base: string;
  location: SourceLocation;
  /** Problems are collected here so that the loader reports all of them at once. */
  errors: SpecgateError[];
  /** Keys of the section set aside for breaking the schema (reported already; see profile-pruning.ts). */
  broken?: ReadonlySet<string>;
}

/** `database:` after schema validation: a URL, or a process speaking JSON lines (with where and how it runs). */
interface RawDatabase {
  url?: string;
  exec?: string | string[];
  cwd?: string;
  env?: Record<string, string | number | boolean>;
  timeoutMs?: number;
  maxLineBytes?: number;
}

/** Section shape after schema validation (schemas/target-profile.schema.json#/definitions/suite). */
interface RawSuite {
  description?: string;
  side?: string;
  select?: { parts?: string[]; requirements?: string[] };
  vars?: Record<string, unknown>;
  secrets?: string[];
  headers?: Record<string, string>;
  paths?: Record<string, string>;
  fields?: Record<string, string>;
  http?: TargetSection['http'];
  database?: RawDatabase;
  exec?: Omit<ExecConfig, 'env'> & { env?: Record<string, string | number | boolean> };
  // the schema checks only the outline of the hook request and of the action steps; the engine
  // runs them as a request and as steps, and reports what is wrong when they run
  clock?: { advance: HttpRequestSpec };
  agent?: { mode: 'scripted' | 'interactive' | 'browser'; actions?: Record<string, Step[]>; chromium?: string; stepTimeoutMs?: number };
}

/** Builds the typed section from its schema-valid raw form and the env values read inside it. */
export function buildTargetSection(section: Record<string, unknown>, envSecrets: readonly string[], ctx: SuiteBuildContext): TargetSection {
  const raw = section as RawSuite;
  const vars = raw.vars ?? {};
  const secrets = new Set(envSecrets);
  (raw.secrets ?? []).forEach((name, i) => {
    if (!Object.prototype.hasOwnProperty.call(vars, name)) {
      const loc = ctx.src.locate(['suites', ctx.suite, 'secrets', i]);
      ctx.errors.push(new SpecgateError(
        'SG_CONFIG',
        `${formatLocation(loc)}: secrets names "${name}", which is not a var of suite ${ctx.suite}; list var names here, not values`,
        { ...loc },
      ));
      return;
    }
    collectLeaves(vars[name], secrets);
  });
  // which vars are secret is unknown while secrets: breaks its rule: every value is kept out of messages
  if (ctx.broken?.has('secrets')) collectLeaves(vars, secrets);
  const headerNames: Record<string, string> = {};
  for (const [neutral, actual] of Object.entries(raw.headers ?? {})) headerNames[neutral.toLowerCase()] = actual;

  const out: TargetSection = { vars, secrets: [...secrets].filter((s) => s !== ''), headerNames, location: ctx.location, locations: keyLocations(section, ctx) };
  if (raw.paths) out.pathNames = { ...raw.paths };
  if (raw.fields) out.fieldNames = { ...raw.fields };
  if (raw.description !== undefined) out.description = raw.description;
  if (raw.side !== undefined) out.side = raw.side;
  if (raw.select) out.select = { ...(raw.select.parts ? { parts: [...raw.select.parts] } : {}), ...(raw.select.requirements ? { requirements: [...raw.select.requirements] } : {}) };
  if (raw.http) out.http = { ...raw.http };
  if (raw.database) {
    const database = databaseSection(raw.database, vars, ctx);
    if (database) out.database = database;
  }
  if (raw.exec) out.exec = execConfig(raw.exec, ctx.base);
  if (raw.clock) out.clock = { advance: raw.clock.advance };
  if (raw.agent) out.agent = agentSection(raw.agent, ctx);
  if (ctx.broken?.size) out.broken = [...ctx.broken];
  return out;
}

/** The agent section; a browser's `chromium:` is taken from the profile's folder when relative. */
function agentSection(raw: NonNullable<RawSuite['agent']>, ctx: SuiteBuildContext): NonNullable<TargetSection['agent']> {
  if (raw.mode === 'scripted') return { mode: 'scripted', actions: raw.actions ?? {} };
  if (raw.mode === 'interactive') return { mode: 'interactive' };
  // the schema checks each page step's fields and capture sources; a step doing one thing is checked here,
  // with a message that says which kinds it mixes; the values are resolved when the action runs
  const actions = (raw.actions ?? {}) as unknown as Record<string, PageStep[]>;
  for (const [action, steps] of Object.entries(actions)) {
    steps.forEach((step, i) => {
      const kinds = PAGE_STEP_KINDS.filter((k) => k in step);
      if (kinds.length === 1) return;
      const loc = ctx.src.locate(['suites', ctx.suite, 'agent', 'actions', action, i]);
      const why = kinds.length ? `does ${kinds.join(' and ')}; a page step does one thing: split it into ${kinds.length} steps` : `does nothing; give it one of ${PAGE_STEP_KINDS.join(', ')}`;
      ctx.errors.push(new SpecgateError('SG_CONFIG', `${formatLocation(loc)}: page step ${i + 1} of the browser action "${action}" ${why}`, { ...loc, action }));
    });
  }
  return {
    mode: 'browser',
    actions,
    ...(raw.chromium !== undefined ? { chromium: resolve(ctx.base, raw.chromium) } : {}),
    ...(raw.stepTimeoutMs !== undefined ? { stepTimeoutMs: raw.stepTimeoutMs } : {}),
  };
}

/** Where the section writes `vars:`, `agent:` and each var, for the engine's checks of the target before a run. */
function keyLocations(section: Record<string, unknown>, ctx: SuiteBuildContext): NonNullable<TargetSection['locations']> {
  const key = (...path: string[]): SourceLocation => ctx.src.locateKey?.(['suites', ctx.suite, ...path]) ?? ctx.src.locate(['suites', ctx.suite, ...path]);
  const vars = section['vars'];
  const out: NonNullable<TargetSection['locations']> = { var: {} };
  if (vars && typeof vars === 'object') {
    out.vars = key('vars');
    for (const name of Object.keys(vars)) out.var[name] = key('vars', name);
  }
  if (section['agent'] !== undefined) out.agent = key('agent');
  if (section['select'] !== undefined) out.select = key('select');
  const fields = section['fields'];
  if (fields && typeof fields === 'object') out.field = Object.fromEntries(Object.keys(fields).map((name) => [name, key('fields', name)]));
  return out;
}

/** A secret var may hold a structure (e.g. a key pair): every scalar in it is secret. */
function collectLeaves(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value);
  else if (typeof value === 'number' || typeof value === 'bigint') into.add(String(value));
  else if (Array.isArray(value)) for (const v of value) collectLeaves(v, into);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) collectLeaves(v, into);
}

function execConfig(raw: NonNullable<RawSuite['exec']>, base: string): ExecConfig {
  // `./plugin` means next to the profile (where the user wrote it); a bare name is looked up in PATH.
  const command = raw.command.includes('/') && !isAbsolute(raw.command) ? resolve(base, raw.command) : raw.command;
  // the structured form is an argument vector: the one command-line rule applies as to a list
  const cfg: ExecConfig = execFor([command, ...(raw.args ?? [])], 'executable');
  if (raw.env) cfg.env = Object.fromEntries(Object.entries(raw.env).map(([k, v]) => [k, String(v)]));
  if (raw.cwd !== undefined) cfg.cwd = resolve(base, raw.cwd);
  if (raw.timeoutMs !== undefined) cfg.timeoutMs = raw.timeoutMs;
  if (raw.maxStdoutBytes !== undefined) cfg.maxStdoutBytes = raw.maxStdoutBytes;
  if (raw.maxStderrBytes !== undefined) cfg.maxStderrBytes = raw.maxStderrBytes;
  return cfg;
}

/**
 * The `database:` section: exactly one of `url` and `exec`; `cwd`, `env` and `maxLineBytes` only
 * with `exec`. The process runs in the profile's folder unless `cwd` says otherwise, and a
 * relative path in its command line is taken from that folder too.
 */
function databaseSection(raw: RawDatabase, vars: Record<string, unknown>, ctx: SuiteBuildContext): DatabaseSection | undefined {
  const problem = (message: string, ...path: string[]): undefined => {
    const loc = ctx.src.locate(['suites', ctx.suite, 'database', ...path]);
    ctx.errors.push(new SpecgateError('SG_CONFIG', `${formatLocation(loc)}: ${message}`, { ...loc }));
    return undefined;
  };
  if (raw.url !== undefined && raw.exec !== undefined) return problem('database has both url and exec; give one: a connection URL, or the command line of a process speaking JSON lines');
  if (raw.url === undefined && raw.exec === undefined)
    return problem('database needs url (postgres://..., mongodb://...) or exec (the command line of a process speaking JSON lines)');
  if (raw.url !== undefined) {
    const extra = (['cwd', 'env', 'maxLineBytes'] as const).find((k) => raw[k] !== undefined);
    if (extra) return problem(`database.${extra} applies only to a database process (exec), not to a url`, extra);
    if (raw.url.includes(PLACEHOLDER))
      return problem(`database.url is still ${JSON.stringify(PLACEHOLDER)}: put your database's URL there (postgres://..., mongodb://...), or name a program that speaks for it with database.exec`, 'url');
    // an unset ${env:...} is a problem of its own already; the URL is judged once it is set
    if (raw.url.includes('${env:')) return { url: raw.url };
    const wrong = urlProblem(raw.url, vars, ctx.suite);
    if (wrong) return problem(`suites.${ctx.suite}.database.url ${wrong}`, 'url');
    return { url: raw.url, ...(raw.timeoutMs !== undefined ? { timeoutMs: raw.timeoutMs } : {}) };
  }
  const cwd = resolve(ctx.base, raw.cwd ?? '.');
  let argv: string[];
  try {
    argv = databaseArgv(raw.exec as string | string[], cwd);
  } catch (e) {
    if (e instanceof SpecgateError) return problem(e.message, 'exec');
    throw e;
  }
  return {
    exec: {
      argv,
      cwd,
      ...(raw.env ? { env: Object.fromEntries(Object.entries(raw.env).map(([k, v]) => [k, String(v)])) } : {}),
      ...(raw.timeoutMs !== undefined ? { timeoutMs: raw.timeoutMs } : {}),
      ...(raw.maxLineBytes !== undefined ? { maxLineBytes: raw.maxLineBytes } : {}),
    },
  };
}

/**
 * What is wrong with a database URL as the run will open it: `${env:...}` is resolved already,
 * and a URL made of the section's vars (`${db_host}`) is checked with them in place, as the run
 * resolves it. A var it names that is not set is said here too, since the run could not open it.
 */
function urlProblem(url: string, vars: Record<string, unknown>, suite: string): string | undefined {
  let resolved: unknown = url;
  if (url.includes('${')) {
    try {
      resolved = resolveDeep(url, { vars: resolveVariables(vars) });
    } catch {
      // the expression's own message would repeat the URL, and with it a password read from the environment
      let names: string[] = [];
      try {
        names = referencedVariables(url).filter((n) => vars[n] === undefined || vars[n] === null);
      } catch {
        return 'holds a ${...} that does not parse; write the URL out, or name the section\'s vars as ${name}';
      }
      return `reads ${names.length ? names.map((n) => `\${${n}}`).join(', ') : 'a variable'}, which suites.${suite}.vars does not set; set ${names.length === 1 ? 'it' : 'them'} under vars:, or write the URL out`;
    }
  }
  return databaseUrlProblem(String(resolved));
}

/**
 * A database process's command line by the one rule (command-line.ts), except that relative
 * paths are found from `base` (the profile's folder) rather than from wherever specgate runs.
 */
function databaseArgv(value: string | string[], base: string): string[] {
  const local = (a: string): string => (a.includes('/') && !isAbsolute(a) && existsSync(resolve(base, a)) ? resolve(base, a) : a);
  if (Array.isArray(value)) return commandArgv(value.map(local), 'database.exec command');
  const line = value.trim();
  const whole = resolve(base, line);
  if (line !== '' && existsSync(whole) && statSync(whole).isFile()) return commandArgv([whole], 'database.exec command');
  const argv = commandArgv(line, 'database.exec command');
  // a shell line runs as written, in the process's folder; a plain one is split into words
  if (argv[0] === '/bin/sh' && argv[1] === '-c') return argv;
  return commandArgv(line.split(/\s+/).map(local), 'database.exec command');
}
