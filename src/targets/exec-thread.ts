import { performance } from 'node:perf_hooks';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import { SpecgateError } from '../errors.js';
import { ClientLinks, type ClientMirror, type RemoteClient } from './exec-clients.js';
import { EXEC_PROTOCOL, type ExecWorkerData, type FromWorker, type ToWorker, type WireLaunch } from './exec-wire.js';
import { fromWire } from './thread-error.js';
import { sweepAlsoBy } from './process-family.js';
import { signalGroup } from './process-kill.js';
import { sweepTagged } from './process-sweep.js';
import type { ClosableExecRunner, ExecRequest, ExecResult, ExecRunOptions } from './types.js';

/** One invocation handed to the worker thread, until it answers. */
interface Pending {
  req: ExecRequest;
  /** `performance.now()` of the call. */
  start: number;
  resolve: (result: ExecResult) => void;
  reject: (e: unknown) => void;
  /** The child's pid, once the worker has started it. */
  pid?: number;
  onAbort?: () => void;
}

/** One worker thread and the invocations it runs. */
interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  clients: ClientLinks;
  /** The tag owner of what it starts (process-sweep.ts). */
  owner?: string;
  /** The version of the messages it speaks (exec-wire.ts), once ready. */
  protocol?: number;
  /** Ended on purpose ({@link ThreadedExecRunner.close}). */
  closing: boolean;
  /** Cut off by the close's deadline: its own last sweep may not have run. */
  forced?: boolean;
  /** What it died of, if an error. */
  error?: Error;
  exited: boolean;
  /** Settles once it has said it is ready, or has ended first. */
  loaded: Promise<void>;
  /** Settles {@link loaded}. */
  settleLoaded: () => void;
  /** How many sweeps the worker has done (it adds one at the end of each). */
  sweeps: Int32Array;
  /** Takes its sweep and its tags out of the last sweep (it has ended). */
  unsweep?: () => void;
}

/** How long specgate, exiting, waits for the worker to end its families (ms); its tagged processes are swept anyway. */
const SWEEP_WAIT_MS = 3000;
/** How long a close waits for the worker to end by itself before it is terminated (ms). */
const CLOSE_WAIT_MS = 3000;

/**
 * Runs exec invocations in a worker thread (exec-worker.ts), so that starting a process (the
 * fork, then the wait until the child has exec'd) blocks that thread and not this one. The
 * worker starts at the first invocation, runs any number at once, and keeps specgate running
 * only while one is in flight. An abort is posted to it; its answer, or its error with code,
 * message and detail, comes back. Should it die, every invocation in flight fails (SG_INTERNAL)
 * once what it started is killed, and the next invocation starts a new one; should it not even
 * load, invocations run in this thread (`inThread`) from then on.
 */
export class ThreadedExecRunner implements ClosableExecRunner {
  private thread: Thread | undefined;
  /** Worker threads do not work here: everything runs in this thread. */
  private unusable = false;
  private nextId = 1;

  constructor(
    private readonly script: URL,
    private readonly inThread: (req: ExecRequest, opts: ExecRunOptions) => Promise<ExecResult>,
  ) {}

  run(req: ExecRequest): Promise<ExecResult> {
    if (req.signal?.aborted) return Promise.reject(req.signal.reason);
    const start = performance.now();
    const thread = this.usableThread();
    if (!thread) return this.inThread(req, { start });
    return new Promise<ExecResult>((resolve, reject) => {
      const id = this.nextId++;
      const pending: Pending = { req, start, resolve, reject };
      const { signal, ...wire } = req;
      try {
        // stdin is copied, not transferred: the caller keeps it (reports, shrinking)
        thread.worker.postMessage({ type: 'run', id, req: wire, startedAt: performance.timeOrigin + start } satisfies ToWorker);
      } catch (e) {
        reject(new SpecgateError('SG_INTERNAL', `the exec invocation of ${req.command} could not be handed to its worker thread: ${(e as Error).message}`, { command: req.command }));
        return;
      }
      if (signal) {
        pending.onAbort = () => thread.worker.postMessage({ type: 'abort', id } satisfies ToWorker);
        signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      thread.pending.set(id, pending);
      this.holdOpen(thread);
    });
  }

  /** Starts the worker thread now, so that it is ready for what comes (a client launch needs it ready). */
  prepare(): void {
    this.usableThread();
  }

  /** Starts the worker thread if need be; true once it takes client launches, false when it never will (it ended first, or speaks other messages). */
  async whenReady(): Promise<boolean> {
    this.prepare();
    const thread = this.thread;
    if (!thread) return false;
    if (thread.owner === undefined && !thread.exited) {
      // a caller awaiting this is work in flight
      thread.worker.ref();
      await thread.loaded;
      if (!thread.exited) this.holdOpen(thread);
    }
    return !thread.exited && thread.protocol === EXEC_PROTOCOL;
  }

  /**
   * Starts a client application (client-spawn.ts) in the worker thread, telling `mirror` of its
   * output and its end as they happen. Undefined while the worker cannot take it (not started
   * yet, still loading, a worker script of another build, worker threads not working here): the
   * caller starts it in its own thread.
   */
  launch(launch: WireLaunch, mirror: ClientMirror): RemoteClient | undefined {
    const thread = this.usableThread();
    if (!thread || thread.protocol !== EXEC_PROTOCOL) return undefined;
    const id = this.nextId++;
    try {
      thread.worker.postMessage({ type: 'launch', id, launch } satisfies ToWorker);
    } catch {
      return undefined;
    }
    const client = thread.clients.add(
      id,
      mirror,
      (type) => thread.worker.postMessage({ type, id } satisfies ToWorker),
      () => this.holdOpen(thread),
    );
    this.holdOpen(thread);
    return client;
  }

  /** The worker thread, started if need be; undefined where worker threads do not work. */
  private usableThread(): Thread | undefined {
    return this.unusable ? undefined : (this.thread ?? this.startThread());
  }

  /**
   * Keeps specgate running while the worker has work in flight (an invocation, a client whose
   * output is not final, a stop under way), as the child processes would in this thread.
   */
  private holdOpen(thread: Thread): void {
    if (thread.pending.size > 0 || thread.clients.busy()) thread.worker.ref();
    else thread.worker.unref();
  }

  /** Ends the worker thread (the run is over) once it has ended its families; an invocation still in flight fails. */
  async close(): Promise<void> {
    const thread = this.thread;
    if (!thread || thread.exited) return;
    this.thread = undefined;
    thread.closing = true;
    const { worker } = thread;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.ref();
    worker.postMessage({ type: 'close' } satisfies ToWorker);
    // a worker stuck in something that does not end is not waited for
    const stuck = setTimeout(() => {
      thread.forced = true;
      void worker.terminate();
    }, CLOSE_WAIT_MS);
    await exited;
    clearTimeout(stuck);
  }

  /**
   * Has the worker end its families now, waiting (blocking: specgate is exiting) until it has:
   * it alone knows the members that left every mark but a parent link it followed.
   */
  private sweepWorker(thread: Thread): void {
    // closing, it reads no further message and ends its families as it exits; its tags are swept here anyway
    if (thread.exited || thread.closing) return;
    const before = Atomics.load(thread.sweeps, 0);
    thread.worker.postMessage({ type: 'sweep' } satisfies ToWorker);
    Atomics.wait(thread.sweeps, 0, before, SWEEP_WAIT_MS);
  }

  private startThread(): Thread | undefined {
    let worker: Worker;
    const workerData: ExecWorkerData = { sweeps: new SharedArrayBuffer(4) };
    try {
      // SHARE_ENV: a child's environment is this process's at the call, as in this thread
      worker = new Worker(this.script, { env: SHARE_ENV, workerData });
    } catch {
      this.unusable = true;
      return undefined;
    }
    let settleLoaded = (): void => undefined;
    const loaded = new Promise<void>((resolve) => (settleLoaded = resolve));
    const thread: Thread = { worker, pending: new Map(), clients: new ClientLinks(), closing: false, exited: false, loaded, settleLoaded, sweeps: new Int32Array(workerData.sweeps) };
    // the last sweep (at exit, at a second Ctrl-C) runs in this thread, where the signals come: it asks the worker's
    thread.unsweep = sweepAlsoBy(() => {
      this.sweepWorker(thread);
      // and whatever carries its tags, should the worker not have swept in time
      if (thread.owner !== undefined) sweepTagged([thread.owner]);
    });
    worker.on('message', (m: FromWorker) => this.onMessage(thread, m));
    worker.on('error', (e) => {
      thread.error = e;
    });
    worker.on('exit', (code) => this.onExit(thread, code));
    // after the listeners: listening to its messages refs it again; idle, it keeps nothing running
    worker.unref();
    this.thread = thread;
    return thread;
  }

  private onMessage(thread: Thread, m: FromWorker): void {
    if (m.type === 'ready') {
      thread.owner = m.owner;
      // a worker of a build before client launches says no version
      thread.protocol = m.protocol ?? 1;
      return thread.settleLoaded();
    }
    if (m.type.startsWith('client-')) {
      thread.clients.onMessage(m);
      // only a client's end can leave the worker idle (a new stop tells through its `changed`)
      if (m.type === 'client-final' || m.type === 'client-stopped' || m.type === 'client-failed') this.holdOpen(thread);
      return;
    }
    if (m.type !== 'started' && m.type !== 'done' && m.type !== 'failed') return;
    const pending = thread.pending.get(m.id);
    if (!pending) return;
    if (m.type === 'started') {
      pending.pid = m.pid;
      return;
    }
    this.settle(thread, m.id, pending);
    if (m.type === 'failed') pending.reject(m.aborted ? pending.req.signal?.reason : fromWire(m.error));
    else {
      const { stdout } = m.result;
      // a Buffer again (a clone arrives as a plain Uint8Array), over the same memory
      pending.resolve({ ...m.result, stdout: Buffer.from(stdout.buffer, stdout.byteOffset, stdout.byteLength) });
    }
  }

  private settle(thread: Thread, id: number, pending: Pending): void {
    thread.pending.delete(id);
    if (pending.onAbort) pending.req.signal?.removeEventListener('abort', pending.onAbort);
    this.holdOpen(thread);
  }

  /** The worker ended: what it left running is killed, and its invocations in flight fail (or, if it never loaded, run here). */
  private onExit(thread: Thread, code: number): void {
    thread.exited = true;
    thread.settleLoaded();
    if (this.thread === thread) this.thread = undefined;
    const pending = [...thread.pending];
    for (const [id, p] of pending) this.settle(thread, id, p);
    if (thread.owner === undefined && !thread.closing) {
      // it started nothing: worker threads do not work here, so this thread runs everything
      this.unusable = true;
      for (const [, p] of pending) this.inThread(p.req, { start: p.start }).then(p.resolve, p.reject);
      thread.unsweep?.();
      return;
    }
    // it ends its families as it exits (process-family.ts), unless it died of something that runs no handler
    this.cleanUpAfter(thread, pending.map(([, p]) => p));
    const why = thread.closing
      ? 'the exec runner was closed (the run ended) before it finished'
      : `the worker thread running it ended unexpectedly (${thread.error ? thread.error.message : `exit code ${code}`}); this is a bug in specgate, please report it`;
    thread.clients.workerEnded(why, { workerExitCode: code, ...(thread.error ? { workerError: thread.error.message } : {}) });
    thread.unsweep?.();
    if (pending.length === 0) return;
    for (const [, p] of pending) {
      p.reject(new SpecgateError(
        'SG_INTERNAL',
        `${p.req.command} was stopped with everything it started: ${why}`,
        { command: p.req.command, workerExitCode: code, ...(thread.error ? { workerError: thread.error.message } : {}) },
      ));
    }
  }

  /** Kills the groups of the invocations in flight, and whatever carries the worker's tags: it ended other than by a clean close. */
  private cleanUpAfter(thread: Thread, pending: readonly Pending[]): void {
    if (thread.closing && !thread.forced && pending.length === 0) return;
    for (const p of pending) if (p.pid !== undefined) signalGroup(p.pid, 'SIGKILL');
    if (thread.owner !== undefined) sweepTagged([thread.owner]);
  }
}
