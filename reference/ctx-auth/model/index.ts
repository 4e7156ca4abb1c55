/** The ctx-auth reference model (spec 000 part C): pure rules and state on a clock, no HTTP. */
export * from './authorize-request.js';
export * from './client-auth.js';
export * from './clients.js';
export * from './codes.js';
export * from './ctx-model.js';
export * from './ids.js';
export * from './metadata.js';
export * from './oauth-errors.js';
export * from './pkce.js';
export * from './protocol.js';
export * from './redirect-uris.js';
export * from './registration.js';
export * from './resource-access.js';
export * from './scopes.js';
export * from './token-request.js';
export * from './tokens.js';
export * from './upstream.js';
