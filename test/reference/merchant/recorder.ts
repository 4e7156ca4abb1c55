import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readYaml } from '../../../src/engine/loader/yaml-source.js';
import { fromRoot } from '../../../src/paths.js';

/**
 * A stand-in merchant service for the client tests: it records every request and answers each
 * with one status and a body naming an ID of every kind the clients keep, so a client goes on
 * as it would against a real service. It knows nothing of the routes: judging is the test's.
 */
export interface Recorded {
  method: string;
  /** Path and query as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  body: string;
}

export interface Recorder {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** The IDs the stand-in answers, each recognisable in the paths that use it. */
export const ANSWERED = {
  id: 'id-7',
  labelId: 'label-7',
  carrierAccountId: 'carrier-7',
  conversionSourceId: 'source-7',
  regionId: 'region-7',
  returnAddressId: 'address-7',
  returnPolicyId: 'policy-7',
  storeCode: 'store-7',
  verificationId: 'verification-7',
} as const;

export async function startRecorder(status = 200): Promise<Recorder> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://recorder.invalid');
      requests.push({ method: req.method ?? '', url: req.url ?? '', path: u.pathname, query: u.searchParams, body: Buffer.concat(chunks).toString('utf8') });
      const body = status < 300 ? ANSWERED : { error: { code: status, message: 'planted error' } };
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Launch {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a compiled script with this Node and only the given environment (plus PATH). */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<Launch> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** One row of the suite's route table. */
export interface Route {
  id: string;
  method: string;
  path: string;
}

/** The operations of suites/merchant/api.yaml. */
export function merchantRoutes(): Route[] {
  const data = readYaml(fromRoot('suites', 'merchant', 'api.yaml')).data as { operations: Route[] };
  return data.operations.map(({ id, method, path }) => ({ id, method, path }));
}

/** Whether a template segment (`{id}`, `{id}:undelete`, `batch`) fits a path segment. */
function segmentFits(template: string, segment: string): boolean {
  if (!template.includes('{')) return template === segment;
  const pattern = template.split(/\{[^}]+\}/).map((lit) => lit.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${pattern}$`).test(segment);
}

/** Literal segments of a template: a literal fits before a parameter. */
const literalCount = (path: string): number => path.split('/').filter((s) => s !== '' && !s.startsWith('{')).length;

/**
 * The operation a request is for: below /content/v2.1, a template its path fits, with its
 * method; among several, the most literal template. Undefined when none fits.
 */
export function routeOf(routes: readonly Route[], method: string, path: string): Route | undefined {
  const prefix = '/content/v2.1';
  if (!path.startsWith(`${prefix}/`)) return undefined;
  const segs = path.slice(prefix.length).split('/').slice(1);
  const fits = routes.filter((r) => {
    const tpl = r.path.split('/').slice(1);
    return r.method === method && tpl.length === segs.length && tpl.every((t, i) => segmentFits(t, segs[i] ?? ''));
  });
  return fits.sort((a, b) => literalCount(b.path) - literalCount(a.path))[0];
}

/** A JSON request body, parsed. */
export function jsonOf(r: Recorded): unknown {
  return JSON.parse(r.body) as unknown;
}
