/**
 * Who may call the reference platform (E, Authentication 1 and 2): the one API key it issued,
 * carried in header `Api-Key`, from a whitelisted server address.
 */
export const AFF_API_KEY = 'aff-7f3c9a1e5b2d4c6f8a0e';

/** The header every call carries (E Endpoints: "All calls send header `Api-Key`"). */
export const API_KEY_HEADER = 'api-key';

/**
 * The addresses the reference accepts calls from: loopback as IPv4 and as an IPv4-mapped IPv6
 * address (how a dual-stack socket reports it).
 */
export const DEFAULT_WHITELIST: readonly string[] = ['127.0.0.1', '::ffff:127.0.0.1'];

/**
 * A loopback source address that is not whitelisted. Linux routes all of 127.0.0.0/8 to the
 * loopback interface, so a request bound to it still reaches a server on 127.0.0.1.
 */
export const UNLISTED_SOURCE = '127.0.0.2';
export const WHITELISTED_SOURCE = '127.0.0.1';
