import { resolve } from 'node:path';
import { SpecgateError, asSpecgateError } from '../src/errors.js';
import { specgateVersion } from '../src/reporting/json.js';
import { HarLog } from '../src/targets/har/har-writer.js';
import { startTrafficRecorder } from '../src/targets/har/traffic-recorder.js';
import { watchInterrupts } from './interrupt.js';

export interface RecordFlags {
  upstream: string;
  har: string;
  listen?: number;
  maxBody?: number;
  count?: number;
  duration?: number;
}

/** Bytes of each body kept in the recording unless --max-body says otherwise. */
export const DEFAULT_MAX_BODY = 1024 * 1024;
/** How soon after an exchange the file is rewritten (exchanges in a burst are written together). */
const WRITE_DELAY_MS = 200;

/** `--upstream`: an http(s) URL, optionally with a base path; nothing after it. */
export function upstreamUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SpecgateError('SG_USAGE', `--upstream ${JSON.stringify(raw)} is not a URL; give the service's address, such as http://127.0.0.1:8080 or https://api.example.test/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SpecgateError('SG_USAGE', `--upstream ${raw} is not http(s); give an http:// or https:// URL`);
  if (url.search || url.hash || url.username || url.password) throw new SpecgateError('SG_USAGE', `--upstream ${raw} has a query, a fragment or a user name; give scheme, host, port and at most a base path (${url.origin}${url.pathname.replace(/\/+$/, '')})`);
  return url;
}

/**
 * `specgate record --upstream <URL> --har <file>`: a recording proxy on 127.0.0.1. Each request
 * is forwarded to the upstream unchanged and recorded with its answer in a HAR 1.2 file,
 * credentials masked (src/targets/har/har-masking.ts), which `specgate run --target har:<file>`
 * judges later. The file is rewritten shortly after every exchange and once more on every stop:
 * Ctrl-C or SIGTERM, `--count` exchanges, `--duration` seconds. Exit 0 when the file holds the
 * recording, 2 when it cannot be written.
 */
export async function recordCommand(opts: RecordFlags, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const upstream = upstreamUrl(opts.upstream);
  const maxBody = opts.maxBody ?? DEFAULT_MAX_BODY;
  const log = new HarLog(resolve(opts.har), { name: 'specgate', version: specgateVersion() }, maxBody);
  // an empty recording first: a path that cannot be written is an error before anything listens
  log.write();

  let failure: SpecgateError | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopNow: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((res) => (stopNow = res));
  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    try {
      log.write();
    } catch (e) {
      failure ??= asSpecgateError(e);
      stopNow('the recording could not be written');
    }
  };

  const recorder = await startTrafficRecorder({
    upstream,
    maxBody,
    ...(opts.listen !== undefined ? { port: opts.listen } : {}),
    onExchange: (x) => {
      if (opts.count !== undefined && log.count >= opts.count) return;
      log.add(x);
      if (opts.count !== undefined && log.count >= opts.count) stopNow(`${opts.count} exchange(s) recorded`);
      else timer ??= setTimeout(flush, WRITE_DELAY_MS);
    },
  });
  const interrupts = watchInterrupts('writing the recording');
  const onAbort = (): void => stopNow('stopped');
  interrupts.signal.addEventListener('abort', onAbort, { once: true });
  const deadline = opts.duration !== undefined ? setTimeout(() => stopNow(`${opts.duration} second(s) passed`), opts.duration * 1000) : undefined;
  try {
    out.write(`recording ${recorder.url} -> ${upstream.href.replace(/\/$/, '')}; writing ${opts.har}; stop with Ctrl-C\n`);
    const why = await stopped;
    await recorder.stop();
    flush();
    if (failure) throw failure;
    out.write(`specgate record: ${why}; ${log.count} exchange(s) written to ${opts.har}\n`);
    return 0;
  } finally {
    if (deadline) clearTimeout(deadline);
    if (timer) clearTimeout(timer);
    interrupts.signal.removeEventListener('abort', onAbort);
    await recorder.stop();
    interrupts.dispose();
  }
}
