/**
 * The worker thread a reference runs in (worker-reference.ts starts it): imports the module
 * named in its start data, starts the exported reference on a VirtualClock over the engine's
 * time cell, posts back what the run needs as data, performs its user agent's actions and its
 * document database's commands, and stops it when told.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SpecgateError } from '../../errors.js';
import { VirtualClock } from '../clock.js';
import type { ReferenceTarget, RunningReference } from '../suite-module.js';
import { crossError } from './crossed-error.js';
import type { FromWorker, ToWorker, WorkerStartData } from './messages.js';

const port = parentPort;
if (!port) throw new SpecgateError('SG_INTERNAL', 'worker-main.js runs as a worker thread of a run, not as a script of its own');
const data = workerData as WorkerStartData;
const post = (m: FromWorker): void => port.postMessage(m);

async function start(): Promise<RunningReference> {
  const mod = (await import(data.module)) as Record<string, unknown>;
  const target = mod[data.name] as ReferenceTarget | undefined;
  if (!target || typeof target.start !== 'function') throw new SpecgateError('SG_INTERNAL', `${data.module} exports no reference named ${data.name}`);
  const running = await target.start({ clock: VirtualClock.over(data.clock) });
  if (running.database) {
    await running.stop();
    throw new SpecgateError('SG_INTERNAL', `the reference ${data.name} hands over a SQL database, which cannot cross to the run's thread: it must start in the run's own process`);
  }
  return running;
}

let running: RunningReference | undefined;
const calls = new Map<number, AbortController>();

/** One call the run's thread makes of the reference's agent or document database. */
function call(m: Extract<ToWorker, { type: 'call' }>, signal: AbortSignal): Promise<unknown> {
  const [first, second] = m.args;
  if (m.target === 'agent') {
    const agent = running?.agent;
    if (!agent) throw new SpecgateError('SG_INTERNAL', `the reference ${data.name} has no user agent`);
    return agent.perform(String(first), (second ?? {}) as Record<string, unknown>, signal);
  }
  const documents = running?.documents;
  if (!documents) throw new SpecgateError('SG_INTERNAL', `the reference ${data.name} has no document database`);
  return m.method === 'close' ? documents.close() : documents.command(first as Record<string, unknown>, signal);
}

port.on('message', (m: ToWorker) => {
  if (m.type === 'call') {
    const abort = new AbortController();
    calls.set(m.id, abort);
    Promise.resolve()
      .then(() => call(m, abort.signal))
      .then(
        (value) => post({ type: 'done', id: m.id, value }),
        (e: unknown) => post({ type: 'failed', id: m.id, error: crossError(e) }),
      )
      .finally(() => calls.delete(m.id));
  } else if (m.type === 'abort') {
    calls.get(m.id)?.abort(new SpecgateError('SG_CASE_TIMEOUT', 'the case stopped while the reference worked for it'));
  } else if (m.type === 'stop') {
    const stopping = running ? running.stop() : Promise.resolve();
    stopping.then(
      () => post({ type: 'stopped' }),
      (e: unknown) => post({ type: 'stop-failed', error: crossError(e) }),
    ).finally(() => port.close());
  }
});

start().then(
  (r) => {
    running = r;
    try {
      post({
        type: 'started',
        description: r.description,
        vars: r.vars,
        ...(r.served ? { served: r.served } : {}),
        ...(r.exec ? { exec: r.exec } : {}),
        ...(r.agent ? { agentKind: r.agent.kind } : {}),
        ...(r.documents ? { documents: r.documents.description } : {}),
      });
    } catch (e) {
      // what it handed back does not cross as data (a function among its vars)
      post({ type: 'start-failed', error: crossError(new SpecgateError('SG_INTERNAL', `the reference ${data.name} handed back what cannot cross threads: ${e instanceof Error ? e.message : String(e)}`)) });
    }
  },
  (e: unknown) => post({ type: 'start-failed', error: crossError(e) }),
);
