import { SpecgateError } from '../../../src/errors.js';
import { nodeExchange } from '../../../src/targets/node-exchange.js';
import { contractIds, fillPath, type Call, type Ids } from './calls.js';
import { MERCHANT_CLIENT_EXIT, readMerchantClientEnv, type MerchantClientEnv } from './contract.js';
import { REFERENCE_CALLS } from './plan.js';

/** Where the client reports: one line per call on `log`, problems on `warn`. */
export interface MerchantClientIo {
  log(line: string): void;
  warn(line: string): void;
}

export const processIo: MerchantClientIo = {
  log: (line) => void process.stdout.write(`${line}\n`),
  warn: (line) => void process.stderr.write(`${line}\n`),
};

/** No single call may hold the client forever; the harness stops a client that never ends anyway. */
const CALL_TIMEOUT_MS = 30_000;

interface Answer {
  status: number;
  body: unknown;
}

/** One call over node:http (src/targets/node-exchange.ts: only the headers given, no redirect followed). */
async function send(method: string, url: URL, body: unknown): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await nodeExchange(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), timeoutMs: CALL_TIMEOUT_MS });
  let parsed: unknown;
  try {
    parsed = res.text === '' ? undefined : JSON.parse(res.text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed };
}

/** The ID in an answer's field, as text (a service may answer numeric IDs as numbers). */
function idIn(body: unknown, field: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const v: unknown = (body as Record<string, unknown>)[field];
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

/**
 * Sends the calls in order and returns the exit status. An error answer is logged and the run
 * goes on (the service's answers are not what is judged); a call whose IDs the service never
 * answered is not sent, and makes the status non-zero; an unreachable service ends the run.
 */
export async function runCalls(env: MerchantClientEnv, calls: readonly Call[], io: MerchantClientIo = processIo): Promise<number> {
  const ids: Ids = contractIds(env);
  let unsent = 0;
  for (const call of calls) {
    const filled = fillPath(call, ids);
    if ('missing' in filled) {
      unsent++;
      io.warn(`${call.op}: not sent: the service never answered ${filled.missing.join(', ')}`);
      continue;
    }
    const url = new URL(`${env.url}${filled.path}`);
    for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
    let answer: Answer;
    try {
      answer = await send(call.method, url, call.body?.(ids));
    } catch (e) {
      io.warn(`${call.op}: ${e instanceof Error ? e.message : `${call.method} ${url.href} failed: ${String(e)}`}; is the merchant service running at ${env.url}?`);
      return MERCHANT_CLIENT_EXIT.failed;
    }
    io.log(`${call.op} ${call.method} ${url.pathname}${url.search} ${answer.status}`);
    if (call.keep && answer.status >= 200 && answer.status < 300) {
      const id = idIn(answer.body, call.keep.from) ?? call.keep.otherwise;
      if (id !== undefined) ids[call.keep.name] = id;
    }
  }
  if (unsent > 0) {
    io.warn(`${unsent} of ${calls.length} calls were not sent`);
    return MERCHANT_CLIENT_EXIT.failed;
  }
  return MERCHANT_CLIENT_EXIT.ok;
}

/** Reads the launch contract and runs the calls; a broken contract is exit status 2. */
export async function runMerchantClient(env: NodeJS.ProcessEnv, calls: readonly Call[] = REFERENCE_CALLS, io: MerchantClientIo = processIo): Promise<number> {
  let contract: MerchantClientEnv;
  try {
    contract = readMerchantClientEnv(env);
  } catch (e) {
    if (!(e instanceof SpecgateError)) throw e;
    io.warn(e.message);
    return MERCHANT_CLIENT_EXIT.usage;
  }
  return runCalls(contract, calls, io);
}

/** Entry point of a client program: runs the calls, then exits with the status. */
export function merchantClientMain(calls: readonly Call[] = REFERENCE_CALLS): void {
  runMerchantClient(process.env, calls).then(
    (status) => process.exit(status),
    (e: unknown) => {
      processIo.warn(`the client failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(MERCHANT_CLIENT_EXIT.failed);
    },
  );
}
