/**
 * What the run's thread and a reference's worker thread say to each other (worker-reference.ts,
 * worker-main.ts): plain data only, as structured clone carries it.
 */
import type { DatabaseRefusal } from '../../targets/database/database-errors.js';
import type { ExecConfig } from '../../targets/types.js';
import type { ServedReference } from '../suite-module.js';
import type { WireError } from '../../targets/thread-error.js';

/** What the worker is given: the reference to start and the cell holding the engine's time. */
export interface WorkerStartData {
  module: string;
  name: string;
  clock: SharedArrayBuffer;
}

/** An error as it crosses (thread-error.ts), with a database's refusal as its observation. */
export type CrossedError = WireError & { refusal?: DatabaseRefusal };

/** The reference's parts that live in the worker and are called from the run's thread. */
export type CallTarget = 'agent' | 'documents';

export type FromWorker =
  | {
      type: 'started';
      description: string;
      vars: Record<string, unknown>;
      served?: ServedReference;
      exec?: ExecConfig;
      /** The kind of the reference's user agent, when it has one (its actions run in the worker). */
      agentKind?: string;
      /** The description of its document database, when it has one (its commands run in the worker). */
      documents?: string;
    }
  | { type: 'start-failed'; error: CrossedError }
  | { type: 'done'; id: number; value: unknown }
  | { type: 'failed'; id: number; error: CrossedError }
  | { type: 'stopped' }
  | { type: 'stop-failed'; error: CrossedError };

export type ToWorker =
  /** agent: perform(action, params); documents: command(doc) or close() */
  | { type: 'call'; id: number; target: CallTarget; method: 'perform' | 'command' | 'close'; args: unknown[] }
  | { type: 'abort'; id: number }
  | { type: 'stop' };
