import { performance } from 'node:perf_hooks';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { SpecgateError } from '../errors.js';
import { runExec } from './exec-runner.js';
import { EXEC_PROTOCOL, transferable, type ExecWorkerData, type FromWorker, type ToWorker, type WireLaunch } from './exec-wire.js';
import { spawnClient, type SpawnedClient } from './client-process/client-spawn.js';
import { toWire } from './thread-error.js';
import { sweepEverythingStarted } from './process-family.js';
import { tagOwner } from './process-sweep.js';

/**
 * The worker thread exec invocations run in (started by exec-thread.ts): each `run` message is
 * one {@link runExec}, as in the calling thread, its stdout handed back without a copy. Starting
 * a process blocks the thread that starts it until the child has exec'd; here that is this
 * thread, not the one running the cases. Client applications (client-process.ts) start here
 * too, each `launch` a {@link spawnClient} whose output and end are told back as they happen.
 */
if (!parentPort) throw new SpecgateError('SG_INTERNAL', 'exec-worker.js runs as a worker thread, started by exec-thread.ts');
const port: MessagePort = parentPort;

/** The abort reason of an invocation the asking side aborted (it keeps the real reason). */
const ABORTED = Symbol('aborted by the asking thread');
const running = new Map<number, AbortController>();
/** The clients started here, until stopped. */
const clients = new Map<number, { client: SpawnedClient; abort: AbortController }>();

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

/** Starts client `id`, telling the asking side what it does. */
function launch(id: number, { argv, env, what }: WireLaunch): void {
  const abort = new AbortController();
  try {
    const client = spawnClient(argv, env, abort.signal, what, {
      output: (stream, text) => post({ type: 'client-output', id, stream, text }),
      exit: (exit, replace) => post({ type: 'client-exit', id, exit, replace }),
      final: () => post({ type: 'client-final', id }),
    });
    clients.set(id, { client, abort });
    post({ type: 'client-started', id, pid: client.pid });
  } catch (e) {
    post({ type: 'client-failed', id, error: toWire(e) });
  }
}

/** Stops client `id` and says how it ended. */
function stopClient(id: number): void {
  const c = clients.get(id);
  if (!c) return;
  void c.client.stop().then((exit) => {
    clients.delete(id);
    post({ type: 'client-stopped', id, exit });
  });
}

port.on('message', (m: ToWorker) => {
  if (m.type === 'abort') {
    running.get(m.id)?.abort(ABORTED);
    return;
  }
  if (m.type === 'launch') return launch(m.id, m.launch);
  if (m.type === 'client-stop') return stopClient(m.id);
  if (m.type === 'client-abort') return clients.get(m.id)?.abort.abort();
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

post({ type: 'ready', owner: tagOwner(), protocol: EXEC_PROTOCOL });
