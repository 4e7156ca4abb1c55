/**
 * The route table of the published merchant client, @googleapis/content (v2.1): every method the
 * client object offers, with the HTTP method, path template and parameters its body sends.
 *
 * Methods are found by walking a live client object (its resources are properties, their methods
 * live on the prototypes), so a method is never missed or invented by a text pattern. The route of
 * each method is a literal inside the method's own source (`url: (rootUrl + '<template>')`,
 * `method: '<M>'`, `pathParams: [...]`), read from that one function, never from the whole file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SpecgateError } from '../../../src/errors.js';
import { fromRoot } from '../../../src/paths.js';

/** The version prefix every template of the client starts with. */
export const CLIENT_PREFIX = '/content/v2.1';

export interface ClientRoute {
  /** Resource path and method name, dotted: `accounts.labels.create`. */
  id: string;
  method: string;
  /** The full template as the client writes it, prefix included. */
  template: string;
  /** The template below {@link CLIENT_PREFIX}. */
  path: string;
  pathParams: string[];
  requiredParams: string[];
  /** Required parameters that are not in the path (sent as query parameters). */
  requiredQuery: string[];
}

/** A method of the live client and the resource object it belongs to (its `this`). */
export interface ClientMethod {
  resource: object;
  fn: (...args: unknown[]) => unknown;
}

/** Every method of a client object: dotted id -> the method, in the order the client declares them. */
export function clientMethods(client: object): Map<string, ClientMethod> {
  const found = new Map<string, ClientMethod>();
  walk(client, [], found, new Set());
  return found;
}

/** Calls a method as the client's users do (`resource.method(params)`). */
export function callMethod(m: ClientMethod, params: Record<string, string>): unknown {
  return Reflect.apply(m.fn, m.resource, [params]);
}

function walk(resource: object, prefix: string[], found: Map<string, ClientMethod>, seen: Set<object>): void {
  if (seen.has(resource)) return;
  seen.add(resource);
  const proto: unknown = Object.getPrototypeOf(resource);
  if (prefix.length && typeof proto === 'object' && proto !== null && proto !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const fn: unknown = Reflect.get(resource, name);
      if (name !== 'constructor' && typeof fn === 'function') found.set([...prefix, name].join('.'), { resource, fn: fn as ClientMethod['fn'] });
    }
  }
  for (const [key, value] of Object.entries(resource)) {
    // `context` holds the shared options and the google object, not a resource.
    if (key !== 'context' && typeof value === 'object' && value !== null) walk(value, [...prefix, key], found, seen);
  }
}

/** The route a client method's source declares; throws when the source does not have the expected shape. */
export function routeOf(id: string, source: string): ClientRoute {
  const url = /\burl:\s*\(\s*rootUrl\s*\+\s*'([^']*)'\s*\)/.exec(source);
  const method = /\bmethod:\s*'([A-Z]+)'/.exec(source);
  const pathParams = /\bpathParams:\s*\[([^\]]*)\]/.exec(source);
  const requiredParams = /\brequiredParams:\s*\[([^\]]*)\]/.exec(source);
  if (!url?.[1] || !method?.[1] || !pathParams || !requiredParams) {
    throw new SpecgateError('SG_INTERNAL', `@googleapis/content method ${id}: its source has no url/method/pathParams/requiredParams literal; the client's generated code changed shape`);
  }
  const template = url[1];
  if (!template.startsWith(`${CLIENT_PREFIX}/`)) throw new SpecgateError('SG_INTERNAL', `@googleapis/content method ${id}: template ${template} does not start with ${CLIENT_PREFIX}/`);
  const path = stringLiterals(pathParams[1] ?? '');
  const required = stringLiterals(requiredParams[1] ?? '');
  return {
    id,
    method: method[1],
    template,
    path: template.slice(CLIENT_PREFIX.length),
    pathParams: path,
    requiredParams: required,
    requiredQuery: required.filter((p) => !path.includes(p)),
  };
}

/** Routes of every method of a client object, in the order the client declares them. */
export function clientRoutes(client: object): ClientRoute[] {
  return [...clientMethods(client)].map(([id, m]) => routeOf(id, Function.prototype.toString.call(m.fn)));
}

/** The client's generated v2.1 module, as text. */
export function clientSourceText(): string {
  return readFileSync(createRequire(fromRoot('package.json')).resolve('@googleapis/content/build/v2.1.js'), 'utf8');
}

/** Every request template the client module's text holds, in order. */
export function templatesInSource(text: string): string[] {
  return [...text.matchAll(/\burl:\s*\(\s*rootUrl\s*\+\s*'([^']*)'\s*\)/g)].map((m) => m[1] ?? '');
}

function stringLiterals(list: string): string[] {
  return [...list.matchAll(/'([^']*)'/g)].map((m) => m[1] ?? '');
}
