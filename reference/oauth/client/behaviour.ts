import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The decisions a client application makes in the web and device flows, as replaceable
 * steps. {@link SPEC_BEHAVIOUR} is what spec 000 part B asks of an application; the reference
 * client runs it unchanged, and a planted-fault client replaces exactly one step, so the shipping
 * reference carries no fault switches.
 */
/** The PKCE parameters an application sends; one left undefined is not sent. */
export interface PkcePair {
  /** Sent as code_verifier in the exchange. */
  verifier: string | undefined;
  /** Sent as code_challenge in the authorization request. */
  challenge: string | undefined;
  /** Sent as code_challenge_method in the authorization request. */
  method: string | undefined;
}

export type TerminalStep = 'stop' | 'restart' | 'poll-again';

/** The platform endpoints an application calls itself (the authorization page is the browser's). */
export type ClientEndpoint = 'exchange' | 'device-code' | 'poll' | 'user';
export type HttpMethod = 'GET' | 'POST';

export interface ClientBehaviour {
  /** Name of the parameter that carries the client ID in the authorization request (B, Endpoints 1: `client_id`). */
  authorizeClientIdParam: string;
  /** HTTP method of each endpoint (B, Endpoints 2-5: POST for the token and device code endpoints, GET for /user). */
  httpMethod(endpoint: ClientEndpoint): HttpMethod;
  /** The code sent in the exchange, given the code the redirect carried (B, Endpoints 2: the code received). */
  exchangedCode(received: string): string;
  /** A fresh `state`; undefined sends none (B, Authentication 1: "should use state"). */
  newState(): string | undefined;
  /** Whether the redirect's state is the one sent (B, Endpoints 1: otherwise abort). */
  stateMatches(sent: string | undefined, returned: string | null): boolean;
  /** A PKCE pair; undefined sends none (B, Authentication 1: "should use PKCE (S256)"). */
  newPkce(): PkcePair | undefined;
  /** Host the loopback listener binds and names in redirect_uri (B, Redirect URLs 3: the literal is preferred). */
  loopbackHost: string;
  /** Where redirect_uri is sent (B, Endpoints 1 and 2: strongly recommended in both). */
  redirectUriIn: { authorize: boolean; exchange: boolean };
  /** Sends client_secret in the code exchange (B, Authentication 1). */
  exchangeSecret: boolean;
  /** The `scope` parameter for the requested scopes (B, Endpoints 1 and 4: space-delimited). */
  scopeParam(scopes: readonly string[]): string;
  /** Parameters of a device poll (B, Endpoints 5). */
  pollParams(p: { clientId: string; clientSecret: string; deviceCode: string }): Record<string, string>;
  /** Parameters of the device code request (B, Endpoints 4). */
  deviceCodeParams(p: { clientId: string; clientSecret: string; scope: string }): Record<string, string>;
  /** Authorization header of API calls (B, Authentication 3). */
  apiAuthorization(token: string): string;
  /** Calls GET {api_url}/user after each token (B, Endpoints 3). */
  revalidate: boolean;
  /** Seconds to wait before the next poll, given the interval in force (B, Endpoints 5). */
  pollDelay(interval: number): number;
  /** The interval after slow_down: the announced one, or 5 seconds more (B, Errors). */
  afterSlowDown(current: number, announced: number | undefined): number;
  /**
   * What follows access_denied or expired_token (B, Endpoints 5: stop; B, Errors: after expiry
   * a new device code must be requested). `restartsLeft` counts the new device codes the
   * application is still willing to request.
   */
  afterTerminal(error: 'access_denied' | 'expired_token', restartsLeft: number): Promise<TerminalStep>;
  /** New device codes requested after expiry before giving up. */
  restarts: number;
  /** Polls of the same device code after it returned a token (B, Endpoints 5: poll until the user authorizes). */
  pollsAfterToken: number;
  /** Stops polling a device code once its expires_in has passed (B, Endpoints 5: poll until the codes expire). */
  honoursExpiresIn: boolean;
  /** Gives up after this many authorization_pending answers (the spec: poll until expiry). */
  maxPending: number;
  /** Lines that tell the user what to do (B, Endpoints 4: show user_code, ask to open the page). */
  userCodeLines(userCode: string, verificationUri: string): string[];
}

/** 32 random bytes, base64url: 43 characters, 256 bits. */
function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** Everything spec 000 part B asks of an application. */
export const SPEC_BEHAVIOUR: Readonly<ClientBehaviour> = Object.freeze({
  authorizeClientIdParam: 'client_id',
  httpMethod: (endpoint: ClientEndpoint): HttpMethod => (endpoint === 'user' ? 'GET' : 'POST'),
  exchangedCode: (received: string) => received,
  newState: randomToken,
  stateMatches: (sent: string | undefined, returned: string | null) => sent !== undefined && returned !== null && constantTimeEqual(sent, returned),
  newPkce: (): PkcePair => {
    const verifier = randomToken();
    return { verifier, challenge: createHash('sha256').update(verifier, 'ascii').digest('base64url'), method: 'S256' };
  },
  loopbackHost: '127.0.0.1',
  scopeParam: (scopes: readonly string[]) => scopes.join(' '),
  redirectUriIn: { authorize: true, exchange: true },
  exchangeSecret: true,
  pollParams: (p: { clientId: string; deviceCode: string }) => ({ client_id: p.clientId, device_code: p.deviceCode, grant_type: DEVICE_GRANT_TYPE }),
  deviceCodeParams: (p: { clientId: string; scope: string }): Record<string, string> => (p.scope ? { client_id: p.clientId, scope: p.scope } : { client_id: p.clientId }),
  apiAuthorization: (token: string) => `Bearer ${token}`,
  revalidate: true,
  pollDelay: (interval: number) => interval,
  afterSlowDown: (current: number, announced: number | undefined) => (announced !== undefined && announced > current ? announced : current + 5),
  afterTerminal: async (error: 'access_denied' | 'expired_token', restartsLeft: number): Promise<TerminalStep> =>
    error === 'expired_token' && restartsLeft > 0 ? 'restart' : 'stop',
  restarts: 1,
  pollsAfterToken: 0,
  honoursExpiresIn: true,
  maxPending: Number.POSITIVE_INFINITY,
  userCodeLines: (userCode: string, verificationUri: string) => [
    `To sign in, open ${verificationUri} in a browser`,
    `and enter the code: ${userCode}`,
  ],
});

/** The spec behaviour with some steps replaced. */
export function behaviourWith(overrides: Partial<ClientBehaviour>): ClientBehaviour {
  return { ...SPEC_BEHAVIOUR, ...overrides };
}
