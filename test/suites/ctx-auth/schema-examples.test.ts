import { describe } from 'vitest';
import { schemaExampleTests, type SchemaExamples } from '../../helpers/schema-examples.js';

/**
 * Hand-written examples of every ctx-auth schema, after the standards part C rests on (RFC 8414
 * §2, OAuth 2.1 §3.2.3 and §3.2.4, RFC 7591 §3.2.1 and §3.2.2): each schema accepts its good
 * examples and refuses each broken one, which breaks exactly one rule of its standard.
 */
type Json = Record<string, unknown>;
const without = (o: Json, key: string): Json => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

const metadata = {
  issuer: 'https://auth.example.test',
  authorization_endpoint: 'https://auth.example.test/authorize',
  token_endpoint: 'https://auth.example.test/token',
  registration_endpoint: 'https://auth.example.test/register',
  response_types_supported: ['code'],
  grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
  scopes_supported: ['ctx', 'profile'],
};
const token = { access_token: 'at-1', token_type: 'Bearer', expires_in: 3600, refresh_token: 'rt-1', scope: 'ctx' };
const registered = {
  client_id: 'c-1', client_id_issued_at: 1735689600, client_secret: 's-1', client_secret_expires_at: 0,
  redirect_uris: ['http://127.0.0.1:7777/callback'], token_endpoint_auth_method: 'client_secret_basic',
  grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], client_name: 'probe',
};

const EXAMPLES: Record<string, SchemaExamples> = {
  metadata: {
    good: [
      metadata,
      // the minimum RFC 8414 §2 asks of a server whose flow uses both endpoints, on loopback http, with a member of a later extension
      { issuer: 'http://127.0.0.1:8080', authorization_endpoint: 'http://127.0.0.1:8080/oauth2/authorize?tenant=a', token_endpoint: 'http://127.0.0.1:8080/oauth2/token', response_types_supported: ['code'], authorization_response_iss_parameter_supported: true },
    ],
    bad: [
      ['no issuer', without(metadata, 'issuer')],
      ['no response_types_supported', without(metadata, 'response_types_supported')],
      ['no token_endpoint', without(metadata, 'token_endpoint')],
      ['a relative authorization_endpoint', { ...metadata, authorization_endpoint: '/authorize' }],
      ['an issuer with a query', { ...metadata, issuer: 'https://auth.example.test?x=1' }],
      ['an endpoint with a fragment', { ...metadata, token_endpoint: 'https://auth.example.test/token#t' }],
      ['response_types_supported empty', { ...metadata, response_types_supported: [] }],
      ['code_challenge_methods_supported a string', { ...metadata, code_challenge_methods_supported: 'S256' }],
      ['not an object', [metadata]],
    ],
  },
  'token-response': {
    good: [token, { access_token: 'at-2', token_type: 'bearer' }, { ...token, token_type: 'BEARER', example_parameter: 'x' }],
    bad: [
      ['no access_token', without(token, 'access_token')],
      ['no token_type', without(token, 'token_type')],
      ['token_type mac', { ...token, token_type: 'mac' }],
      ['expires_in a string', { ...token, expires_in: '3600' }],
      ['access_token empty', { ...token, access_token: '' }],
    ],
  },
  'token-error': {
    good: [{ error: 'invalid_grant' }, { error: 'invalid_client', error_description: 'unknown client', error_uri: 'https://auth.example.test/errors' }],
    bad: [['an error outside OAuth 2.1 §3.2.4', { error: 'invalid_token' }], ['no error', { error_description: 'x' }], ['error a number', { error: 400 }]],
  },
  'registration-response': {
    good: [registered, { client_id: 'c-2', redirect_uris: ['https://app.example.test/cb'], token_endpoint_auth_method: 'none' }],
    bad: [
      ['no client_id', without(registered, 'client_id')],
      ['a secret without client_secret_expires_at', without(registered, 'client_secret_expires_at')],
      ['redirect_uris not echoed', without(registered, 'redirect_uris')],
      ['redirect_uris a string', { ...registered, redirect_uris: 'http://127.0.0.1:7777/callback' }],
      ['client_id_issued_at a string', { ...registered, client_id_issued_at: '1735689600' }],
    ],
  },
  'registration-error': {
    good: [{ error: 'invalid_redirect_uri', error_description: 'redirect_uris[0] is not https or loopback' }, { error: 'invalid_client_metadata' }],
    bad: [['a token error code', { error: 'invalid_request' }], ['no error', { error_description: 'bad' }]],
  },
};

describe('ctx-auth schemas', () => {
  schemaExampleTests('ctx-auth', EXAMPLES, "the standard's examples");
});
