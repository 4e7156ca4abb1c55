/**
 * The protocol revision this reference implements (C Versioning 2) and the neutral header names
 * of the suite: the spec's `CTX-Protocol-Version` and the suite's own session header (a target
 * profile maps both to a vendor's names).
 */
export const PROTOCOL_VERSION = '2025-03-26';
export const VERSION_HEADER = 'CTX-Protocol-Version';
export const SESSION_HEADER = 'CTX-Session-Id';
