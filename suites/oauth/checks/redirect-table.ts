import { defineCheck } from '../../../src/engine/checks/contract.js';
import { SpecgateError } from '../../../src/errors.js';
import { matchRedirect } from '../../../reference/oauth/model/redirect.js';
import { REDIRECT_JUDGES } from './redirect-args.js';
import { judgeCandidate } from './redirect-outcome.js';

/**
 * The rows of the spec's redirect table, built around a target's callback URL (spec 000, B,
 * Redirect URLs, rule 2 and its table; rule 3 for loopback callbacks).
 */
export function tableRows(callback: string): Array<{ kind: string; uri: string }> {
  let cb: URL;
  try {
    cb = new URL(callback);
  } catch {
    throw new SpecgateError('SG_CONFIG', `the callback URL "${callback}" is not an absolute URL; fix the callback URL variables in the target profile`);
  }
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

/**
 * Judges every row of the redirect table for one application like a generated candidate; each
 * fails under the requirement the model names for it.
 */
export const redirectTable = defineCheck<{ client_id: string; callback: string }>({
  description: "judges every row of the spec's redirect table around an application's callback URL",
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['client_id', 'callback'],
    properties: {
      client_id: { type: 'string', minLength: 1, description: 'the application' },
      callback: { type: 'string', minLength: 1, description: 'its registered callback URL' },
    },
  },
  judges: REDIRECT_JUDGES,
  async run(ctx, { client_id: clientId, callback }) {
    for (const row of tableRows(callback)) {
      const verdict = matchRedirect(callback, row.uri);
      await judgeCandidate(
        ctx,
        { client_id: clientId, callback, redirect_uri: row.uri, kind: row.kind, state: 'table' },
        { accepted: verdict.accepted, rule: verdict.rule, reason: verdict.reason },
      );
    }
  },
});
