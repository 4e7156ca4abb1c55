import { SpecgateError } from '../errors.js';
import type { ClientExit } from './client-process/client-output.js';
import type { ClientNews } from './client-process/client-spawn.js';
import type { FromWorker } from './exec-wire.js';
import { signalGroup } from './process-kill.js';
import { fromWire } from './thread-error.js';

/**
 * The client applications an exec worker thread runs (exec-thread.ts), seen from the thread that
 * launched them: each one's news handed to its mirror (client-process.ts) as the worker tells
 * it, its stops answered, and its end told should the worker end first.
 */

/** What the launching thread is told of a client: its news, and a failure that is the start's or specgate's, not the client's. */
export interface ClientMirror extends ClientNews {
  /** It could not be started, or the thread running it ended: what waits on it fails with `error`. */
  failed(error: Error): void;
}

/** A client running in the worker thread (client-process.ts mirrors its output). */
export interface RemoteClient {
  /** Stops it as a client started in the launching thread is stopped, and says how it ended. */
  stop(): Promise<ClientExit>;
  /** Its case was aborted: its whole family goes at once. */
  abort(): void;
}

interface ClientLink {
  mirror: ClientMirror;
  pid?: number;
  exit?: ClientExit;
  /** Its output is final. */
  final: boolean;
  /** Nothing of it is left in the worker: it could not start, or the worker ended. */
  gone: boolean;
  /** The stops waiting for the worker's answer. */
  stops: ((exit: ClientExit) => void)[];
  /** How the worker's stop ended it: a later stop answers this. */
  stopped?: ClientExit;
}

/** The clients of one worker thread, by the id their messages carry. */
export class ClientLinks {
  private readonly links = new Map<number, ClientLink>();

  /** Whether a client keeps the worker busy: its output is not final, or a stop is under way. */
  busy(): boolean {
    for (const c of this.links.values()) if (!c.final || c.stops.length > 0) return true;
    return false;
  }

  /** Client `id`, just handed to the worker; `post` sends it a message of its own. */
  add(id: number, mirror: ClientMirror, post: (type: 'client-stop' | 'client-abort') => void, changed: () => void): RemoteClient {
    const link: ClientLink = { mirror, final: false, gone: false, stops: [] };
    this.links.set(id, link);
    return {
      stop: () =>
        new Promise<ClientExit>((resolve) => {
          if (link.stopped) return resolve(link.stopped);
          if (link.gone) return resolve(link.exit ?? { code: null, signal: null });
          link.stops.push(resolve);
          if (link.stops.length === 1) post('client-stop');
          changed();
        }),
      abort: () => {
        if (!link.gone && !link.stopped) post('client-abort');
      },
    };
  }

  /** A `client-*` message of the worker. */
  onMessage(m: FromWorker): void {
    if (!('id' in m)) return;
    const link = this.links.get(m.id);
    if (!link) return;
    switch (m.type) {
      case 'client-started':
        if (m.pid !== undefined) link.pid = m.pid;
        return;
      case 'client-output':
        return link.mirror.output(m.stream, m.text);
      case 'client-exit':
        if (m.replace || link.exit === undefined) link.exit = m.exit;
        return link.mirror.exit(m.exit, m.replace);
      case 'client-final':
        link.final = true;
        link.mirror.final();
        // a stop already answered waited only for this
        if (link.stopped) this.links.delete(m.id);
        return;
      case 'client-failed':
        // the start threw, as it would have in the launching thread: the case errors with it
        this.links.delete(m.id);
        return this.end(link, fromWire(m.error));
      case 'client-stopped':
        link.stopped = m.exit;
        // its output may come to be final only after the stop gave up waiting for it
        if (link.final) this.links.delete(m.id);
        for (const resolve of link.stops.splice(0)) resolve(m.exit);
        return;
      default:
        return;
    }
  }

  /** The worker ended (`why`): every client still running is killed with its group, and fails with SG_INTERNAL. */
  workerEnded(why: string, detail: Record<string, unknown>): void {
    const links = [...this.links.values()];
    this.links.clear();
    for (const link of links) {
      if (link.final) {
        for (const resolve of link.stops.splice(0)) resolve(link.stopped ?? link.exit ?? { code: null, signal: null });
        continue;
      }
      if (link.pid !== undefined) signalGroup(link.pid, 'SIGKILL');
      this.end(link, new SpecgateError('SG_INTERNAL', `a client application was stopped with everything it started: ${why}`, detail));
    }
  }

  /** Ends a client that is gone from the worker: its mirror fails with `error`, its stops are answered. */
  private end(link: ClientLink, error: Error): void {
    link.gone = true;
    link.final = true;
    link.mirror.failed(error);
    for (const resolve of link.stops.splice(0)) resolve(link.exit ?? { code: null, signal: null });
  }
}
