import { SpecgateError } from '../../errors.js';
import { DocumentProcess, type ProcessOwner } from './document-process.js';
import type { DocumentDatabaseTarget, ExecDatabaseConfig } from './types.js';
import { oneAtATime } from './one-at-a-time.js';

export { commandLabel } from './document-process-errors.js';

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A document database run as a process speaking JSON lines (exec-protocol.md): started once per
 * target, on the first command; each command is one line on its stdin, each reply one line on its
 * stdout, in order. A process that exits, answers a line that is not a JSON object, answers
 * without being asked, or floods, is ended and its error names the command it was sent; the next
 * command starts it afresh. A refusal (`ok: 0`) is the database's answer and leaves it running.
 */
export function execDocuments(config: ExecDatabaseConfig): DocumentDatabaseTarget {
  const name = programName(config.argv);
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let session: DocumentProcess | undefined;
  const serial = oneAtATime();
  /** What ended the last process while no command waited: the next command is told, then a new process starts. */
  let carried: SpecgateError | undefined;
  const owner: ProcessOwner = {
    isCurrent: (p) => session === p,
    forget: (p) => {
      if (session === p) session = undefined;
    },
    carry: (error) => {
      carried ??= error;
    },
  };

  /** Sends one command to the running process, starting it first if none runs. */
  const run = (doc: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> => {
    signal?.throwIfAborted();
    if (carried) {
      const e = carried;
      carried = undefined;
      return Promise.reject(e);
    }
    const s = session ?? (session = new DocumentProcess(config, name, owner));
    return s.send(doc, timeoutMs, signal);
  };

  return {
    description: `database process ${name}`,
    command(doc, signal) {
      return serial(() => run(doc, signal));
    },
    async close() {
      const s = session;
      if (!s) return;
      session = undefined;
      await s.stop();
    },
  };
}

/** The process as messages name it: the script a Node or shell line runs, else the executable. */
function programName(argv: readonly string[]): string {
  if (argv[0] === process.execPath && argv[1] !== undefined) return argv[1];
  if (argv[0] === '/bin/sh' && argv[1] === '-c' && argv[2] !== undefined) return argv[2].replace(/ "\$@"$/, '');
  return argv[0] ?? '(no command)';
}
