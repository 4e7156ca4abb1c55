import type { HttpRequestSpec, Step } from '../../../src/engine/model.js';

/** The user agent's actions and the parameters each takes (see {@link ReferenceUserAgent} in agent.ts). */
const AGENT_ACTIONS: Record<string, string[]> = {
  'sign-in': [],
  open: ['query'],
  approve: ['query'],
  deny: ['query'],
  // the verification page the device authorization named: the user opens the page it gave
  'enter-user-code': ['user_code', 'verification_uri'],
  'approve-device': ['user_code', 'verification_uri'],
  'deny-device': ['user_code', 'verification_uri'],
  revoke: ['client_id'],
};

/** Every key of an action's result (AgentResult). */
const RESULT_KEYS = ['outcome', 'status', 'location', 'code', 'state', 'error', 'prompted', 'reauthorize', 'accepted', 'reason'];

/**
 * A profile's scripted actions for a platform that serves specgate's user-agent bridge
 * (`POST {auth_url}/__specgate/agent/<action>` with the parameters as JSON, the result as JSON):
 * each action is one request to the bridge, capturing every key of the result.
 */
export function bridgeActions(): Record<string, Step[]> {
  const actions: Record<string, Step[]> = {};
  for (const [action, params] of Object.entries(AGENT_ACTIONS)) {
    const request: HttpRequestSpec = { method: 'POST', url: `\${auth_url}/__specgate/agent/${action}`, json: Object.fromEntries(params.map((p) => [p, `\${${p}}`])) };
    actions[action] = [{ request, capture: Object.fromEntries(RESULT_KEYS.map((k) => [k, `$.${k}`])) }];
  }
  return actions;
}

/** The clock hook of a reference platform (clock-hook.ts), as a profile's `clock.advance` request. */
export function clockAdvance(): { advance: HttpRequestSpec } {
  return { advance: { method: 'POST', url: '${auth_url}/__specgate/clock/advance', json: { ms: '${ms}' } } };
}
