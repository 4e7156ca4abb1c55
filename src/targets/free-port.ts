import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { SpecgateError } from '../errors.js';

/** Where Linux says which ports it hands out for `listen(0)` and outgoing connections. */
const EPHEMERAL_RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';
/** The IANA dynamic range, for systems that do not say theirs. */
const DEFAULT_EPHEMERAL: readonly [number, number] = [49152, 65535];
/** The lowest port handed out: clear of the well-known ports and most services' defaults. */
const LOWEST = 20000;
const ATTEMPTS = 64;

/** The system's ephemeral port range (Linux: `32768 60999` by default). */
export function ephemeralRange(read: () => string = () => readFileSync(EPHEMERAL_RANGE_FILE, 'utf8')): [number, number] {
  try {
    const [lo, hi] = read().trim().split(/\s+/).map(Number);
    if (lo !== undefined && hi !== undefined && Number.isInteger(lo) && Number.isInteger(hi) && lo > 0 && hi >= lo) return [lo, hi];
  } catch {
    // not Linux, or no /proc: the IANA range
  }
  return [...DEFAULT_EPHEMERAL];
}

/** The ports below the ephemeral range (or, when it starts too low, above it) to pick from. */
export function reservedRange(ephemeral: readonly [number, number]): [number, number] {
  const [lo, hi] = ephemeral;
  if (lo - 1 - LOWEST >= 1000) return [LOWEST, lo - 1];
  if (65535 - hi >= 1000) return [hi + 1, 65535];
  return [LOWEST, 65535];
}

function bindable(port: number): Promise<boolean> {
  const s = createServer();
  return new Promise((resolve) => {
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/**
 * A port free on 127.0.0.1 right now, for a process that will listen on it a moment later (an
 * application under test told `PORT`, a database, a callback address). It is chosen outside
 * the system's ephemeral range: a port from `listen(0)` is handed back out to the next server
 * that listens on port 0 — any of the servers a concurrent case starts — so the application
 * would find it taken, or worse, the browser would talk to that other server. Ports outside
 * the range are never given to `listen(0)` or to outgoing connections.
 */
export async function freePort(): Promise<number> {
  const [lo, hi] = reservedRange(ephemeralRange());
  for (let i = 0; i < ATTEMPTS; i++) {
    const port = lo + Math.floor(Math.random() * (hi - lo + 1));
    if (await bindable(port)) return port;
  }
  throw new SpecgateError('SG_INTERNAL', `cannot find a free port on 127.0.0.1 between ${lo} and ${hi} after ${ATTEMPTS} tries`);
}
