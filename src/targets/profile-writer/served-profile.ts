import { stringify } from 'yaml';
import type { HttpRequestSpec, Step } from '../../engine/model.js';
import { secretEnvName, type DeclaredVar } from '../declared-vars.js';
import type { ExecConfig } from '../types.js';
import { commentLines } from './yaml-text.js';

/** What `specgate serve --profile` knows of the reference it started. */
export interface ServedFacts {
  suite: string;
  /** What the reference says it is (shown as the profile's name). */
  description: string;
  vars: Record<string, unknown>;
  declared: DeclaredVar[];
  clock?: { advance: HttpRequestSpec };
  agent?: { mode: 'scripted'; actions: Record<string, Step[]> };
  exec?: ExecConfig;
  /** The database section (`exec:` of a process serving a copy of the reference's database). */
  database?: { exec: string[] };
  /** How the profile names its JSON Schema (for editors). */
  schemaPath: string;
  /** The env file holding the secrets, as the profile's comment names it. */
  envFile: string;
}

export interface ServedProfile {
  /** The profile's YAML text. */
  text: string;
  /** Environment variable -> secret value, for the env file beside the profile. */
  env: Record<string, string>;
  /** Secret variable -> the environment variable the profile reads it from. */
  fromEnv: Record<string, string>;
}

/**
 * A ready-to-run target profile for a served reference. Secrets (the variables the suite
 * declares secret) are not written into it: the profile reads them with `${env:NAME}` and their
 * values go to the env file, so the profile can be shared, committed or printed in a CI log and
 * the values stay in one owner-only file that the run's environment loads.
 */
export function servedProfile(f: ServedFacts): ServedProfile {
  const secret = new Set(f.declared.filter((v) => v.secret).map((v) => v.name));
  const env: Record<string, string> = {};
  const fromEnv: Record<string, string> = {};
  const kept: string[] = [];
  const vars: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(f.vars)) {
    if (value === undefined) continue;
    if (secret.has(name) && (typeof value === 'string' || typeof value === 'number')) {
      const key = secretEnvName(f.suite, name);
      env[key] = String(value);
      fromEnv[name] = key;
      // a number read from the environment comes back as text: the cases compare it as text
      vars[name] = `\${env:${key}}`;
    } else {
      if (secret.has(name)) kept.push(name);
      vars[name] = value;
    }
  }
  const section: Record<string, unknown> = {
    vars,
    ...(kept.length ? { secrets: kept } : {}),
    ...(f.exec ? { exec: { command: f.exec.command, ...(f.exec.args?.length ? { args: f.exec.args } : {}) } } : {}),
    ...(f.database ? { database: f.database } : {}),
    ...(f.clock ? { clock: f.clock } : {}),
    ...(f.agent ? { agent: f.agent } : {}),
  };
  const keys = Object.keys(env);
  // `. p.env` would search PATH for a name without a slash
  const shown = f.envFile.includes('/') ? f.envFile : `./${f.envFile}`;
  const header = [
    `# yaml-language-server: $schema=${f.schemaPath}`,
    ...commentLines(`A target profile for the served ${f.suite} reference, written by \`specgate serve ${f.suite} --profile\`; it works while that reference runs.`, ''),
    ...(keys.length
      ? commentLines(
          `Its secrets (${keys.join(', ')}) are read from the environment and kept out of this file, in ${f.envFile} (readable by its owner only). Load them before the run: \`set -a; . ${shown}; set +a\` in a POSIX shell.`,
          '',
        )
      : []),
  ];
  const body = stringify({ name: f.description, suites: { [f.suite]: section } }, { lineWidth: 0 });
  return { text: `${header.join('\n')}\n${body}`, env, fromEnv };
}

/**
 * The env file's text: one `NAME='value'` line each, which a POSIX shell (`set -a; . file`)
 * reads back unchanged (a single quote inside is written the shell's way, `'\''`).
 */
export function envFileText(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([k, v]) => `${k}='${v.replace(/'/g, `'\\''`)}'\n`)
    .join('');
}
