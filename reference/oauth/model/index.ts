/** The platform OAuth model of spec 000, part B: pure rules and state machines on a clock. */
export * from './device-flow.js';
export * from './directory.js';
export * from './formats.js';
export * from './ids.js';
export * from './limits.js';
export * from './pkce.js';
export * from './platform.js';
export * from './rate-window.js';
export * from './redirect.js';
export * from './scopes.js';
export * from './tokens.js';
export * from './web-flow.js';
