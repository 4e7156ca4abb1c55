/** Options whose values a replay command replaces or drops (the rest of the command line is kept). */
const REPLACED = ['--suite', '--case', '--seed', '--path', '--runs', '--report', '--baseline', '--concurrency', '--shard', '--shard-timings'];

/**
 * The exact command that replays one case: the same target options as this run, only that
 * case, the same run seed, and the fast-check path of the shrunk counterexample.
 */
export function replayCommand(argv: string[], suite: string, caseId: string, seed: number, path?: string): string {
  const kept = withoutOptions(argv.slice(2), REPLACED);
  const cmd = kept[0] === 'run' ? kept : ['run', ...kept.filter((k) => k !== 'run')];
  const parts = ['specgate', ...cmd, '--suite', suite, '--case', caseId, '--seed', String(seed)];
  if (path) parts.push('--path', path);
  return parts.map(quote).join(' ');
}

/** Shell-quotes one argument when it needs it. */
export function quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `args` without the named options, written `--name value` or `--name=value`; every other
 * argument is kept in its order. The argument after `--name` is taken as its value unless it is
 * itself an option (starts with `--`).
 */
export function withoutOptions(args: readonly string[], names: readonly string[]): string[] {
  const drop = new Set(names);
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (!drop.has(a.split('=')[0] ?? a)) {
      kept.push(a);
      continue;
    }
    if (!a.includes('=') && !(args[i + 1] ?? '--').startsWith('--')) i++;
  }
  return kept;
}
