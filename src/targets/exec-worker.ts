import { performance } from 'node:perf_hooks';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { SpecgateError } from '../errors.js';
import { runExec } from './exec-runner.js';
import { transferable, type ExecWorkerData, type FromWorker, type ToWorker } from './exec-wire.js';
import { toWire } from './thread-error.js';
import { sweepEverythingStarted } from './process-family.js';
import { tagOwner } from './process-sweep.js';

/**
 * The worker thread exec invocations run in (started by exec-thread.ts): each `run` message is
 * one {@link runExec}, as in the calling thread, its stdout handed back without a copy. Starting
 * a process blocks the thread that starts it until the child has exec'd; here that is this
 * thread, not the one running the cases.
 */
if (!parentPort) throw new SpecgateError('SG_INTERNAL', 'exec-worker.js runs as a worker thread, started by exec-thread.ts');
const port: MessagePort = parentPort;

/** The abort reason of an invocation the asking side aborted (it keeps the real reason). */
const ABORTED = Symbol('aborted by the asking thread');
const running = new Map<number, AbortController>();

function post(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  try {
    port.postMessage(message, transfer);
  } catch (e) {
    // something in it does not clone: the invocation still ends, with what went wrong
    if (message.type !== 'done' && message.type !== 'failed') throw e;
    port.postMessage({ type: 'failed', id: message.id, aborted: false, error: toWire(new SpecgateError('SG_INTERNAL', `the answer of an exec invocation could not be handed back: ${(e as Error).message}`)) } satisfies FromWorker);
  }
}

const sweeps = new Int32Array((workerData as ExecWorkerData).sweeps);

port.on('message', (m: ToWorker) => {
  if (m.type === 'abort') {
    running.get(m.id)?.abort(ABORTED);
    return;
  }
  // its exit hook (process-family.ts) ends every family it started
  if (m.type === 'close') process.exit(0);
  if (m.type === 'sweep') {
    // what only this thread knows of its families (members that left every other mark) is used here
    sweepEverythingStarted();
    Atomics.add(sweeps, 0, 1);
    Atomics.notify(sweeps, 0);
    return;
  }
  const { id } = m;
  const ac = new AbortController();
  running.set(id, ac);
  runExec({ ...m.req, signal: ac.signal }, { start: m.startedAt - performance.timeOrigin, onStart: (pid) => post({ type: 'started', id, pid }) })
    .then(
      (result) => post({ type: 'done', id, result }, transferable(result.stdout)),
      (e: unknown) => post({ type: 'failed', id, error: toWire(e), aborted: e === ABORTED }),
    )
    .finally(() => running.delete(id));
});

post({ type: 'ready', owner: tagOwner() });
