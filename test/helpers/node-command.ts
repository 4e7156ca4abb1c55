const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A client command (the value of `--client`, `--events-client`, `--merchant-client`) running a
 * compiled script with this Node, each word quoted for the shell.
 */
export function nodeCommand(script: string, ...args: string[]): string {
  return [process.execPath, script, ...args].map(quote).join(' ');
}
