/** Options whose values a replay command replaces or drops (the rest of the command line is kept). */
const REPLACED = new Set(['--suite', '--case', '--seed', '--path', '--runs', '--report', '--baseline', '--concurrency']);
const FLAGS_WITHOUT_VALUE = new Set(['--strict', '--include-slow', '--no-color', '--verbose', '--no-shrink']);

/**
 * The exact command that replays one case: the same target options as this run, only that
 * case, the same run seed, and the fast-check path of the shrunk counterexample.
 */
export function replayCommand(argv: string[], suite: string, caseId: string, seed: number, path?: string): string {
  const args = argv.slice(2);
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const takesValue = a.startsWith('--') && !a.includes('=') && !FLAGS_WITHOUT_VALUE.has(a) && !(args[i + 1] ?? '--').startsWith('--');
    const name = a.split('=')[0] ?? a;
    if (REPLACED.has(name)) {
      if (takesValue) i++;
      continue;
    }
    kept.push(a);
    if (takesValue) kept.push(args[++i] as string);
  }
  const cmd = kept[0] === 'run' ? kept : ['run', ...kept.filter((k) => k !== 'run')];
  const parts = ['specgate', ...cmd, '--suite', suite, '--case', caseId, '--seed', String(seed)];
  if (path) parts.push('--path', path);
  return parts.map(quote).join(' ');
}

/** Shell-quotes one argument when it needs it. */
export function quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
