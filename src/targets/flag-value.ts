/**
 * A flag's value from the argument list of a standalone played server or a test fixture
 * (`--port 8080` -> "8080"); undefined when the flag is absent. specgate's own command line
 * parses with commander; these small programs need no more than this.
 */
export function flagValue(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}
