import { ctxClientMain } from './run.js';

/**
 * The reference client of the context protocol's authorization (spec 000 part C, revision
 * 2025-03-26): the embedded default target of the ctx-auth suite's client-side cases. Started
 * with the launch contract's variables (README.md); runs one session of resource calls,
 * authorizing when the server asks, then exits.
 */
ctxClientMain();
