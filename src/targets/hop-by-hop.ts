import type { IncomingHttpHeaders } from 'node:http';

/** Header fields that describe one connection, never the message (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * The fields of `headers` a proxy passes on: without the connection's own (Keep-Alive, Connection,
 * Transfer-Encoding...) and those the Connection field names. Passed on, an upstream's
 * `Keep-Alive: timeout=60` would tell the client to reuse, for a minute, a connection the proxy
 * closes sooner: its next request would meet a closed socket.
 */
export function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = new Set(
    String(headers['connection'] ?? '')
      .split(',')
      .map((n) => n.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && !named.has(name)) out[name] = value;
  return out;
}
