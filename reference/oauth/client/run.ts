import { SPEC_BEHAVIOUR, behaviourWith, type ClientBehaviour } from './behaviour.js';
import { CLIENT_EXIT, readClientEnv } from './contract.js';
import { runDeviceFlow } from './device.js';
import { processIo, type ClientIo } from './session.js';
import { runWebFlow } from './web.js';

/**
 * Runs one flow as the launch contract says (SPECGATE_FLOW) and returns the exit status.
 * `overrides` replaces steps of the spec behaviour (planted-fault clients use this).
 */
export async function runClient(env: NodeJS.ProcessEnv, overrides: Partial<ClientBehaviour> = {}, io: ClientIo = processIo): Promise<number> {
  let contract;
  try {
    contract = readClientEnv(env);
  } catch (e) {
    io.warn((e as Error).message);
    return CLIENT_EXIT.usage;
  }
  const b = Object.keys(overrides).length ? behaviourWith(overrides) : SPEC_BEHAVIOUR;
  try {
    return contract.flow === 'web' ? await runWebFlow(contract, b, io) : await runDeviceFlow(contract, b, io);
  } catch (e) {
    io.warn(`The flow failed: ${(e as Error).message}`);
    return CLIENT_EXIT.platform;
  }
}

/** Entry point of a client program: runs the flow, then exits with its status. */
export function clientMain(overrides: Partial<ClientBehaviour> = {}): void {
  void runClient(process.env, overrides).then((status) => process.exit(status));
}
