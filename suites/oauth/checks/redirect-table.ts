import type { TypedCheck } from '../../../src/engine/suite-module.js';
import { matchRedirect } from '../../../reference/oauth/model/redirect.js';
import { redirectOutcome } from './redirect-outcome.js';
import { str } from './support.js';

/**
 * The rows of the spec's redirect table, built around a target's callback URL (spec 000, B,
 * Redirect URLs, rule 2 and its table; rule 3 for loopback callbacks). Each row is judged
 * like a generated candidate and fails under the requirement the model names for it.
 * Args: `client_id`, `callback`.
 */
export function tableRows(callback: string): Array<{ kind: string; uri: string }> {
  const cb = new URL(callback);
  const path = cb.pathname.replace(/\/$/, '');
  const port = cb.port || (cb.protocol === 'https:' ? '443' : '80');
  const other = port === '8089' ? '8090' : '8089';
  const h = cb.hostname;
  const loopback = h === '127.0.0.1' || h === '[::1]';
  const rows = [
    { kind: 'same host, same path', uri: `${cb.protocol}//${cb.host}${path}` },
    { kind: 'same host, deeper path', uri: `${cb.protocol}//${cb.host}${path}/deeper/path` },
    { kind: 'same host, sibling path', uri: `${cb.protocol}//${cb.host}${path}-sibling` },
    { kind: 'same host, root path', uri: `${cb.protocol}//${cb.host}/` },
    { kind: loopback ? 'loopback literal, another port' : 'same host, another port', uri: `${cb.protocol}//${h}:${other}${path}` },
    { kind: 'different host', uri: `${cb.protocol}//different-host.test${path}` },
  ];
  if (!loopback && !/^[\d.]+$/.test(h)) {
    rows.push(
      { kind: 'sub-domain, same path', uri: `${cb.protocol}//sub.${cb.host}${path}` },
      { kind: 'sub-domain, deeper path', uri: `${cb.protocol}//sub.${cb.host}${path}/deeper` },
      { kind: 'sub-domain, another port', uri: `${cb.protocol}//sub.${h}:${other}${path}` },
    );
  }
  if (loopback) rows.push({ kind: 'loopback literal, another port, deeper path', uri: `${cb.protocol}//${h}:${other}${path}/deeper` });
  return rows;
}

export const redirectTable: TypedCheck = async (ctx, args) => {
  const clientId = str(args['client_id']);
  const callback = str(args['callback']);
  for (const row of tableRows(callback)) {
    const verdict = matchRedirect(callback, row.uri);
    await redirectOutcome(ctx, {
      case: { client_id: clientId, callback, redirect_uri: row.uri, kind: row.kind, state: 'table' },
      expected: { accepted: verdict.accepted, rule: verdict.rule, reason: verdict.reason },
    });
  }
};
