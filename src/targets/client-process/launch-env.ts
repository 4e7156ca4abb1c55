import { SpecgateError } from '../../errors.js';

/**
 * The environment a client application under test starts with. The application inherits
 * specgate's own environment, plus:
 *
 * - `BROWSER=echo`: an application that opens a browser the conventional way (through
 *   `$BROWSER`) prints the address on its output instead, where the harness reads it;
 * - the suite's `SPECGATE_*` variables: where the server specgate plays listens, the
 *   credentials it registered for the application, what to do in this run. Each suite with a
 *   client side documents its own, next to its reference client.
 *
 * Only `SPECGATE_*` names are accepted from a suite, so the contract an application reads is
 * the one its suite documents and nothing of specgate's environment is overridden by accident;
 * the one exception is `PORT`, where web applications conventionally read the port to listen on.
 */
export const CONTRACT_PREFIX = 'SPECGATE_';

/** Conventional names a suite may set besides its `SPECGATE_*` ones. */
const CONVENTIONAL_NAMES: ReadonlySet<string> = new Set(['PORT']);

/** Variables every launch gets, whatever the suite. */
export const LAUNCH_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({ BROWSER: 'echo' });

/** The full environment of one launch: specgate's, the defaults, then the suite's contract variables. */
export function launchEnv(contract: Readonly<Record<string, string>>, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const outside = Object.keys(contract).filter((k) => !k.startsWith(CONTRACT_PREFIX) && !CONVENTIONAL_NAMES.has(k));
  if (outside.length)
    throw new SpecgateError('SG_INTERNAL', `a client launch was given ${outside.join(', ')}: contract variables are named ${CONTRACT_PREFIX}* (rename them in the suite's launch contract)`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  return { ...env, ...LAUNCH_DEFAULTS, ...loopbackPastProxies(env), ...contract };
}

/** Loopback names a client must reach directly: the servers specgate plays listen there. */
const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/**
 * An application that honours HTTP_PROXY (many HTTP libraries do, some with no loopback
 * exception) would send the requests meant for the played server to the user's proxy. The
 * launch keeps the user's NO_PROXY entries and adds the loopback names to them.
 */
function loopbackPastProxies(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['NO_PROXY', 'no_proxy']) {
    const have = (env[name] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    out[name] = [...have, ...LOOPBACK.filter((h) => !have.includes(h))].join(',');
  }
  return out;
}
