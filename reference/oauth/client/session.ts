import type { ClientBehaviour } from './behaviour.js';
import { CLIENT_EXIT, type ClientEnv } from './contract.js';
import { getJson, text } from './http.js';

/** Where the client talks to its user: stdout for instructions, stderr for problems. */
export interface ClientIo {
  say(line: string): void;
  warn(line: string): void;
}

export const processIo: ClientIo = {
  say: (line) => void process.stdout.write(`${line}\n`),
  warn: (line) => void process.stderr.write(`${line}\n`),
};

/**
 * After every token: GET {api_url}/user with it, because the user may have switched accounts
 * during sign-in (spec 000, B, Endpoints 3). Returns the exit status of the flow.
 */
export async function finishWithToken(env: ClientEnv, b: ClientBehaviour, token: string, io: ClientIo): Promise<number> {
  if (!b.revalidate) {
    io.say('Signed in.');
    return CLIENT_EXIT.ok;
  }
  const user = await getJson(`${env.apiUrl}/user`, b.apiAuthorization(token), b.httpMethod('user'));
  if (user.status !== 200) {
    io.warn(`The platform did not confirm who signed in (GET /user answered HTTP ${user.status}).`);
    return CLIENT_EXIT.platform;
  }
  io.say(`Signed in as ${text(user.fields['login']) ?? '(unknown)'} (id ${text(user.fields['id']) ?? '?'}).`);
  return CLIENT_EXIT.ok;
}
