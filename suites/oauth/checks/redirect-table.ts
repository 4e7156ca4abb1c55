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
    const rows = tableRows(callback);
    judgedHere(ctx.caseId, ctx.requirements, callback, rows);
    for (const row of rows) {
      const verdict = matchRedirect(callback, row.uri);
      await judgeCandidate(
        ctx,
        { client_id: clientId, callback, redirect_uri: row.uri, kind: row.kind, state: 'table' },
        { accepted: verdict.accepted, rule: verdict.rule, reason: verdict.reason },
      );
    }
  },
});

/**
 * A case judges the table around one kind of callback: a loopback literal's rows fall under the
 * loopback rule (rule 3), a named host's under the port rule. A profile whose callback is of the
 * other kind would have the rows judged under requirements the case does not list: that is the
 * profile's to fix, and nothing is asked of the target.
 */
function judgedHere(caseId: string, requirements: readonly string[], callback: string, rows: Array<{ uri: string }>): void {
  const missing = [...new Set(rows.map((r) => matchRedirect(callback, r.uri).rule))].filter((rule) => !requirements.includes(rule));
  if (!missing.length) return;
  const host = new URL(callback).hostname;
  const loopback = host === '127.0.0.1' || host === '[::1]';
  throw new SpecgateError(
    'SG_CONFIG',
    `case ${caseId} judges ${requirements.join(', ')}, but its callback URL ${callback} is ${loopback ? 'on a loopback literal' : 'on a named host'}, whose table rows fall under ${missing.join(', ')} too; set the callback variable this case reads in the target profile to an application whose callback is ${loopback ? 'on a named host' : 'on a loopback literal (http://127.0.0.1/...)'}`,
  );
}
