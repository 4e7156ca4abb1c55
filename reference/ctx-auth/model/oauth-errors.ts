/**
 * Error codes the reference answers with, from the registered sets: token endpoint (OAuth 2.1
 * §3.2.4), authorization endpoint (OAuth 2.1 §4.1.2.1). The model names the code; the server
 * chooses the status (400, or 401 for invalid_client).
 */
export type TokenErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

export type AuthorizeErrorCode = 'invalid_request' | 'unauthorized_client' | 'unsupported_response_type' | 'invalid_scope';

export interface OAuthRefusal<C extends string> {
  ok: false;
  error: C;
  description: string;
}

export const refusal = <C extends string>(error: C, description: string): OAuthRefusal<C> => ({ ok: false, error, description });
