/** Node's variable naming a file of extra CA certificates. */
export const EXTRA_CA_CERTS_VAR = 'NODE_EXTRA_CA_CERTS';

/** Where env(1) is: it sets a variable and starts the command in its place (the same process). */
const ENV_PROGRAM = '/usr/bin/env';

/**
 * The argument vector that runs a compiled bundled program (a reference client application, the
 * affiliate integration) with this Node, for a program that makes no TLS connection: the servers
 * specgate plays for it listen on plain HTTP on loopback. When `env` names extra CA certificates,
 * the program starts through env(1) with {@link EXTRA_CA_CERTS_VAR} emptied: Node reads and
 * parses that bundle at every start (some 35 ms of CPU), once per case here, for nothing. The
 * launch contract passes on only `SPECGATE_*` variables, so the command is where this is said.
 */
export function referenceNodeCommand(script: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (!env[EXTRA_CA_CERTS_VAR] || process.platform === 'win32') return [process.execPath, script];
  return [ENV_PROGRAM, `${EXTRA_CA_CERTS_VAR}=`, process.execPath, script];
}
