/**
 * A reference started in a worker thread of the run (ReferenceTarget#worker): it answers its
 * requests on another core while this thread runs the engine. Its clock reads the engine's
 * VirtualClock's shared cell, so time a case lets pass holds there at once; what it hands back
 * (vars, description, served, exec) arrives as a message; its user agent's actions and its
 * document database's commands are posted to it and performed there.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SpecgateError } from '../../errors.js';
import type { DocumentDatabaseTarget } from '../../targets/database/types.js';
import type { UserAgentDriver } from '../../targets/types.js';
import type { VirtualClock } from '../clock.js';
import type { RunningReference, WorkerReferenceEntry } from '../suite-module.js';
import { uncrossCallError, uncrossError } from './crossed-error.js';
import type { CallTarget, FromWorker, ToWorker, WorkerStartData } from './messages.js';

export interface WorkerReferenceOptions {
  clock: VirtualClock;
  /** The worker's script (default: the compiled worker-main.js beside this module). */
  script?: URL;
  /** How long the reference may take to start (default 60 s). */
  startTimeoutMs?: number;
  /** How long it may take to stop before its thread is ended regardless (default 5 s). */
  stopTimeoutMs?: number;
}

/** The compiled worker script, beside this module once built. */
function workerScript(): URL {
  return new URL('./worker-main.js', import.meta.url);
}

/**
 * Whether references can start in worker threads here: the engine runs compiled (the CLI,
 * from dist/). Run from its TypeScript sources (the tests) there is no script for a worker to
 * load, and references start in-process.
 */
export function workersAvailable(script: URL = workerScript()): boolean {
  return existsSync(fileURLToPath(script));
}

/**
 * Starts the reference `entry` names in a worker thread, on `opts.clock`'s time. A reference that
 * fails to start, or a thread that fails or exits first, rejects with a SpecgateError (the
 * reference's own code when it threw one, else SG_TARGET_UNREACHABLE); a thread that fails later
 * rejects the user agent's pending actions and the stop with one.
 */
export function startWorkerReference(entry: WorkerReferenceEntry, opts: WorkerReferenceOptions): Promise<RunningReference> {
  const data: WorkerStartData = { module: entry.module, name: entry.name, clock: opts.clock.shared };
  const worker = new Worker(opts.script ?? workerScript(), { workerData: data });
  const label = `the reference ${entry.name} (worker thread)`;
  const post = (m: ToWorker): void => worker.postMessage(m);

  let started = false;
  let stopping = false;
  let failure: SpecgateError | undefined;
  let settleStart: { resolve(r: RunningReference): void; reject(e: SpecgateError): void } | undefined;
  let settleStop: ((e?: SpecgateError) => void) | undefined;
  const pending = new Map<number, { resolve(r: unknown): void; reject(e: unknown): void }>();

  /** The thread is gone or unusable: everything waiting on it hears why, once. */
  const fail = (e: SpecgateError): void => {
    if (!failure) failure = e;
    settleStart?.reject(failure);
    settleStart = undefined;
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
    settleStop?.(failure);
    settleStop = undefined;
  };

  worker.on('error', (e: Error) => fail(new SpecgateError('SG_TARGET_UNREACHABLE', `${label} failed: ${e.message}`, undefined, { cause: e })));
  worker.on('exit', (code) => {
    if (stopping) {
      // what still waited on it will not be answered; later calls hear so too
      const gone = new SpecgateError('SG_TARGET_UNREACHABLE', `${label} was stopped`);
      failure ??= gone;
      for (const p of pending.values()) p.reject(gone);
      pending.clear();
      settleStop?.();
    } else fail(new SpecgateError('SG_TARGET_UNREACHABLE', `${label} ended unexpectedly (exit code ${code})${started ? ' while the run used it' : ' before it started'}`, { exitCode: code }));
  });

  worker.on('message', (m: FromWorker) => {
    switch (m.type) {
      case 'started':
        started = true;
        settleStart?.resolve(running(m));
        settleStart = undefined;
        return;
      case 'start-failed':
        fail(uncrossError(m.error, 'SG_TARGET_UNREACHABLE', m.error.code ? '' : `${label} could not start: `));
        void worker.terminate();
        return;
      case 'done':
        pending.get(m.id)?.resolve(m.value);
        pending.delete(m.id);
        return;
      case 'failed':
        pending.get(m.id)?.reject(uncrossCallError(m.error));
        pending.delete(m.id);
        return;
      case 'stopped':
        settleStop?.();
        return;
      case 'stop-failed':
        settleStop?.(uncrossError(m.error, 'SG_INTERNAL', `${label} failed to stop: `));
        return;
    }
  });

  let nextId = 0;
  /** Calls the reference's agent or document database in the worker; the case's stop aborts it there. */
  const call = (target: CallTarget, method: 'perform' | 'command' | 'close', args: unknown[], signal?: AbortSignal): Promise<unknown> => {
    if (failure) return Promise.reject(failure);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = (): void => {
        pending.delete(id);
        post({ type: 'abort', id });
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = (): void => signal?.removeEventListener('abort', onAbort);
      pending.set(id, { resolve: (r) => (done(), resolve(r)), reject: (e) => (done(), reject(e)) });
      try {
        post({ type: 'call', id, target, method, args });
      } catch (e) {
        pending.delete(id);
        done();
        reject(new SpecgateError('SG_INTERNAL', `what the ${target} was given cannot cross to ${label}: ${e instanceof Error ? e.message : String(e)}`));
      }
    });
  };
  const agentOf = (kind: string): UserAgentDriver => ({
    kind,
    perform: (action, params, signal) => call('agent', 'perform', [action, params], signal) as Promise<Record<string, unknown>>,
  });
  const documentsOf = (description: string): DocumentDatabaseTarget => ({
    description,
    command: (doc, signal) => call('documents', 'command', [doc], signal) as Promise<Record<string, unknown>>,
    close: async () => {
      await call('documents', 'close', []);
    },
  });

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    if (stopped) return stopped;
    stopping = true;
    const failed = failure;
    if (failed) {
      stopped = worker.terminate().then(() => {
        throw failed;
      });
      return stopped;
    }
    stopped = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => settleStop?.(), opts.stopTimeoutMs ?? 5_000);
      settleStop = (e) => {
        settleStop = undefined;
        clearTimeout(timer);
        // the thread ends either way: stopped, failed to stop, or past its time
        void worker.terminate().then(() => (e ? reject(e) : resolve()));
      };
      post({ type: 'stop' });
    });
    return stopped;
  };

  const running = (m: Extract<FromWorker, { type: 'started' }>): RunningReference => ({
    description: m.description,
    vars: m.vars,
    ...(m.served ? { served: m.served } : {}),
    ...(m.exec ? { exec: m.exec } : {}),
    ...(m.agentKind !== undefined ? { agent: agentOf(m.agentKind) } : {}),
    ...(m.documents !== undefined ? { documents: documentsOf(m.documents) } : {}),
    stop,
  });

  return new Promise<RunningReference>((resolve, reject) => {
    const timer = setTimeout(() => {
      fail(new SpecgateError('SG_TARGET_TIMEOUT', `${label} did not start within ${opts.startTimeoutMs ?? 60_000} ms`));
      void worker.terminate();
    }, opts.startTimeoutMs ?? 60_000);
    settleStart = {
      resolve: (r) => (clearTimeout(timer), resolve(r)),
      reject: (e) => (clearTimeout(timer), reject(e)),
    };
  });
}
