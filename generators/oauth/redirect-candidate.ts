import fc from 'fast-check';
import { SpecgateError } from '../../src/errors.js';

/**
 * Redirect URI candidates around an application's callback URL (spec 000, B, Redirect URLs):
 * the table's rows (same and deeper paths, sub-domains, sibling and root paths, other ports,
 * other hosts) plus the traps a matcher must not fall into (`..` and `%2e%2e` escapes, label
 * prefixes, userinfo, case of host and path) and loopback forms. Only candidates the spec
 * decides are generated; its oracle is the model's matcher.
 */
export interface RedirectCandidate {
  client_id: string;
  callback: string;
  redirect_uri: string;
  /** What the candidate varies, for reports and shrinking. */
  kind: string;
  state: string;
}

export interface CallbackApp {
  clientId: string;
  callback: string;
}

const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
const label = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/);
const port = fc.integer({ min: 1024, max: 65535 });

function variants(cb: URL): fc.Arbitrary<{ kind: string; uri: string }> {
  const base = `${cb.protocol}//${cb.host}`;
  const path = cb.pathname.replace(/\/$/, '');
  const defaultPort = cb.port || (cb.protocol === 'https:' ? '443' : '80');
  const otherPort = port.filter((p) => String(p) !== defaultPort);
  const isLoopback = cb.hostname === '127.0.0.1' || cb.hostname === '[::1]';
  const named = !/^[\d.]+$/.test(cb.hostname) && !cb.hostname.startsWith('[');
  const deeper = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `${path}/${s.join('/')}`);
  const kinds: Array<fc.Arbitrary<{ kind: string; uri: string }>> = [
    fc.constant({ kind: 'same host, same path', uri: `${base}${path}` }),
    deeper.map((p) => ({ kind: 'same host, deeper path', uri: `${base}${p}` })),
    segment.map((s) => ({ kind: 'same host, sibling path', uri: `${base}/${s === path.slice(1) ? `${s}x` : s}` })),
    segment.map((s) => ({ kind: 'same host, path prefix sibling', uri: `${base}${path}${s}` })),
    fc.constant({ kind: 'same host, root path', uri: `${base}/` }),
    segment.map((s) => ({ kind: 'dot-dot escape', uri: `${base}${path}/../${s}` })),
    segment.map((s) => ({ kind: 'encoded dot-dot escape', uri: `${base}${path}/%2e%2e/${s}` })),
    fc.constant({ kind: 'path case differs', uri: `${base}${path.toUpperCase()}` }).filter((v) => v.uri !== `${base}${path}`),
    segment.map((s) => ({ kind: 'query kept', uri: `${base}${path}?from=${s}` })),
    otherPort.map((p) => ({ kind: isLoopback ? 'loopback literal, any port' : 'same host, another port', uri: `${cb.protocol}//${cb.hostname}:${p}${path}` })),
    fc.tuple(otherPort, deeper).map(([p, d]) => ({ kind: isLoopback ? 'loopback literal, any port, deeper path' : 'same host, another port, deeper path', uri: `${cb.protocol}//${cb.hostname}:${p}${d}` })),
    label.map((l) => ({ kind: 'different host', uri: `${cb.protocol}//${l}.other.test${path}` })),
    fc.constant({ kind: 'userinfo trick', uri: `${cb.protocol}//${cb.hostname}@evil.test${path}` }),
  ];
  if (named) {
    kinds.push(
      label.map((l) => ({ kind: 'sub-domain, same path', uri: `${cb.protocol}//${l}.${cb.host}${path}` })),
      fc.tuple(label, deeper).map(([l, d]) => ({ kind: 'sub-domain, deeper path', uri: `${cb.protocol}//${l}.${cb.host}${d}` })),
      fc.tuple(label, otherPort).map(([l, p]) => ({ kind: 'sub-domain, another port', uri: `${cb.protocol}//${l}.${cb.hostname}:${p}${path}` })),
      label.map((l) => ({ kind: 'label prefix of host', uri: `${cb.protocol}//${l}${cb.host}${path}` })),
      fc.constant({ kind: 'host as prefix of another', uri: `${cb.protocol}//${cb.hostname}.evil.test${path}` }),
      fc.constant({ kind: 'upper-case host', uri: `${cb.protocol}//${cb.host.toUpperCase()}${path}` }),
      fc.tuple(fc.constantFrom('127.0.0.1', '[::1]'), otherPort).map(([h, p]) => ({ kind: 'loopback literal for a named host', uri: `${cb.protocol}//${h}:${p}${path}` })),
    );
    const parent = cb.hostname.split('.').slice(1).join('.');
    if (parent.includes('.')) kinds.push(fc.constant({ kind: 'parent domain', uri: `${cb.protocol}//${parent}${path}` }));
  }
  if (isLoopback) {
    const other = cb.hostname === '127.0.0.1' ? '[::1]' : '127.0.0.1';
    kinds.push(
      otherPort.map((p) => ({ kind: 'the other loopback literal', uri: `${cb.protocol}//${other}:${p}${path}` })),
      otherPort.map((p) => ({ kind: 'localhost is not a loopback literal', uri: `${cb.protocol}//localhost:${p}${path}` })),
    );
  }
  if (cb.hostname === 'localhost') {
    kinds.push(otherPort.map((p) => ({ kind: 'localhost with another port', uri: `${cb.protocol}//localhost:${p}${path}` })));
  }
  return fc.oneof(...kinds);
}

/** Candidates for one or more registered applications (each with its callback URL). */
export function redirectCandidate(apps: readonly CallbackApp[]): fc.Arbitrary<RedirectCandidate> {
  const perApp = apps.map((app) =>
    fc.tuple(variants(new URL(app.callback)), fc.stringMatching(/^[A-Za-z0-9]{8,16}$/)).map(([v, state]) => ({
      client_id: app.clientId,
      callback: app.callback,
      redirect_uri: v.uri,
      kind: v.kind,
      state,
    })),
  );
  if (perApp.length === 0)
    throw new SpecgateError('SG_CONFIG', 'redirect candidates need an application with a callback URL: set vars.client_id and vars.callback_url (or the loopback_/localhost_ pairs) in the target profile');
  return fc.oneof(...perApp);
}

/**
 * The applications a target's variables describe: first the main one (callback_url), then the
 * loopback and localhost ones when the target sets them.
 */
export function callbackApps(vars: Readonly<Record<string, unknown>>): CallbackApp[] {
  const out: CallbackApp[] = [];
  const add = (id: unknown, cb: unknown): void => {
    if (typeof id === 'string' && typeof cb === 'string' && id && cb) out.push({ clientId: id, callback: cb });
  };
  add(vars['client_id'], vars['callback_url']);
  add(vars['loopback_client_id'], vars['loopback_callback_url']);
  add(vars['localhost_client_id'], vars['localhost_callback_url']);
  return out;
}
