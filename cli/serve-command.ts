import { chmodSync } from 'node:fs';
import { SpecgateError, isSpecgateError } from '../src/errors.js';
import { VirtualClock } from '../src/engine/clock.js';
import { loadSuites } from '../src/engine/load-suites.js';
import type { RunningReference, SuiteModule } from '../src/engine/suite-module.js';
import { writeFileNoFollow } from '../src/reporting/output-path.js';
import { declaredVars } from '../src/targets/declared-vars.js';
import { envFileText, servedProfile } from '../src/targets/profile-writer/served-profile.js';
import { schemaPathFor } from './init-command.js';
import { didYouMean } from './suggest.js';

export interface ServeFlags {
  port?: number;
  /** Write a target profile for the served reference here (its secrets go to an env file beside it). */
  profile?: string;
  /** The origin clients reach the reference at (a forwarding proxy in front of it). */
  publicUrl?: string;
}

/**
 * `specgate serve <suite>`: starts the embedded reference implementation (on a virtual clock
 * whose hook is exposed) and prints its variables until stopped with Ctrl-C or SIGTERM. With
 * `--profile` it also writes a target profile that runs the suite against it from another
 * process; with `--public-url` it names that origin instead of its own address.
 */
export async function serveCommand(modules: SuiteModule[], suite: string, opts: ServeFlags, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const m = modules.find((x) => x.name === suite);
  if (!m) throw new SpecgateError('SG_USAGE', `no suite named "${suite}"${didYouMean(suite, modules.map((x) => x.name))}; known suites: ${modules.map((x) => x.name).join(', ')}`);
  if (!m.reference) throw new SpecgateError('SG_USAGE', `suite ${suite} has no embedded reference implementation to serve`);
  const publicUrl = opts.publicUrl !== undefined ? publicOrigin(opts.publicUrl) : undefined;
  if (publicUrl && !m.reference.takesPublicUrl) {
    const able = modules.filter((x) => x.reference?.takesPublicUrl).map((x) => x.name);
    throw new SpecgateError('SG_USAGE', `the ${suite} reference cannot name a public URL yet, so --public-url cannot be used with it; ${able.length ? `it works with: ${able.join(', ')}` : 'no loaded suite supports it'}`);
  }
  // loaded before the reference starts: a suite that does not load stops here, with nothing left running
  const declared = opts.profile ? declaredVars(loadSuites(modules, [suite]).suites[0] ?? missingSuite(suite)) : [];
  const running = await m.reference.start({ clock: new VirtualClock(Date.now()), standalone: true, ...(opts.port !== undefined ? { port: opts.port } : {}), ...(publicUrl ? { publicUrl } : {}) });
  try {
    const vars = running.served?.vars ?? running.vars;
    const written = opts.profile ? writeProfile(suite, opts.profile, running, vars, declared, publicUrl) : undefined;
    out.write(`specgate: serving the ${suite} reference (${running.description})\n`);
    for (const [k, v] of Object.entries(vars)) {
      const env = written?.secrets[k];
      out.write(`  ${k}: ${env ? `(secret: ${env} in ${written.envFile})` : typeof v === 'string' ? v : JSON.stringify(v)}\n`);
    }
    if (running.exec) out.write(`  exec: ${[running.exec.command, ...(running.exec.args ?? [])].join(' ')}\n`);
    if (running.served?.database) out.write(`  database.exec: ${running.served.database.exec.join(' ')} (a process serving a fresh copy of this reference's database)\n`);
    if (publicUrl) out.write(`  listening: ${running.served?.listening ?? '(see above)'} (answering as ${publicUrl})\n`);
    if (written) {
      const load = written.envFile ? `set -a; . ${shellPath(written.envFile)}; set +a; ` : '';
      out.write(`specgate: wrote the target profile ${written.profile}${written.envFile ? ` and its secrets to ${written.envFile} (owner-only)` : ''}; run the suite against this reference with:\n  ${load}specgate run --suite ${suite} --target ${shellPath(written.profile)}\n`);
    }
    // the last line: whoever reads the output knows everything above is there
    out.write('specgate: ready; Ctrl-C stops it\n');
  } catch (e) {
    await running.stop();
    throw e;
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await running.stop();
  out.write('specgate: stopped\n');
  return 0;
}

function missingSuite(suite: string): never {
  throw new SpecgateError('SG_INTERNAL', `suite ${suite} did not load`);
}

/** `--public-url`: an http(s) origin, nothing after it (the reference serves its own paths below it). */
export function publicOrigin(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SpecgateError('SG_USAGE', `--public-url ${JSON.stringify(raw)} is not a URL; give the origin clients reach the reference at, such as https://sg.example.test or http://127.0.0.1:8080`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SpecgateError('SG_USAGE', `--public-url ${raw} is not http(s); give an http:// or https:// origin`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password)
    throw new SpecgateError('SG_USAGE', `--public-url ${raw} has more than an origin; give scheme, host and port only (${url.origin}): the reference serves its own paths below it`);
  return url.origin;
}

/**
 * Writes the profile and, when the reference has secrets, the env file beside it
 * (`p.yaml` -> `p.env`), readable by its owner only.
 */
function writeProfile(suite: string, file: string, running: RunningReference, vars: Record<string, unknown>, declared: ReturnType<typeof declaredVars>, publicUrl: string | undefined): { profile: string; envFile: string; secrets: Record<string, string> } {
  const envFile = /\.ya?ml$/i.test(file) ? file.replace(/\.ya?ml$/i, '.env') : `${file}.env`;
  const served = running.served;
  const profile = servedProfile({
    suite,
    // not the reference's own description: behind a proxy that names the address it listens on
    description: `the ${suite} reference served by specgate${publicUrl ? ` at ${publicUrl}` : ''}`,
    vars,
    declared,
    ...(served?.clock ? { clock: served.clock } : {}),
    ...(served?.agent ? { agent: served.agent } : {}),
    ...(served?.database ? { database: served.database } : {}),
    ...(running.exec ? { exec: running.exec } : {}),
    schemaPath: schemaPathFor(file),
    envFile,
  });
  try {
    // never through a symbolic link: the env file holds secrets
    writeFileNoFollow(`--profile ${file}`, file, profile.text);
    if (Object.keys(profile.env).length) {
      writeFileNoFollow(`--profile ${file}`, envFile, envFileText(profile.env), { mode: 0o600 });
      chmodSync(envFile, 0o600);
    }
  } catch (e) {
    if (isSpecgateError(e)) throw e;
    throw new SpecgateError('SG_USAGE', `cannot write the profile ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)}); give a writable --profile path`, {}, { cause: e });
  }
  return { profile: file, envFile: Object.keys(profile.env).length ? envFile : '', secrets: profile.fromEnv };
}

/** A path as a POSIX shell reads it: quoted when needed, and with a slash, so `. file` does not search PATH. */
function shellPath(path: string): string {
  const p = path.includes('/') ? path : `./${path}`;
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}
