import { spawn, type ChildProcess } from 'node:child_process';
import { SpecgateError } from '../../errors.js';
import { parseJsonLossless } from '../body-parse.js';
import { ProcessFamily } from '../process-family.js';
import { encodeJson } from '../request-body.js';
import { StderrHead } from '../stderr-head.js';
import { cutText } from '../text-cut.js';
import { DatabaseAnswerError } from './database-errors.js';
import type { DocumentDatabaseTarget, ExecDatabaseConfig } from './types.js';
import { oneAtATime } from './one-at-a-time.js';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_STDERR_BYTES = 64 * 1024;
/** How long a process may take to exit by itself once its stdin is closed, before it is killed. */
const EXIT_GRACE_MS = 1_000;
/** How much of an unexpected line an error message quotes. */
const QUOTED_CHARS = 200;
/** After the process exited, how long its pipes may stay open before it counts as gone anyway. */
const EXIT_CLOSE_MS = 250;

/** The command as messages name it: its operation and collection (`find "names"`). */
export function commandLabel(doc: Record<string, unknown>): string {
  const first = Object.entries(doc)[0];
  if (!first) return 'the empty command';
  const [name, value] = first;
  return typeof value === 'string' ? `${name} ${JSON.stringify(value)}` : name;
}

/** A started process and what it has said so far. */
interface Session {
  child: ChildProcess;
  /** The process and everything it started. */
  family: ProcessFamily;
  stderr: StderrHead;
  /** Bytes of the line being read (no newline yet). */
  partial: Buffer[];
  partialBytes: number;
  /** The command waiting for its reply. */
  waiting: { doc: Record<string, unknown>; resolve: (reply: Record<string, unknown>) => void; reject: (e: unknown) => void } | undefined;
  exited: Promise<void>;
  hasExited: boolean;
}

/**
 * A document database run as a process speaking JSON lines (exec-protocol.md): started once per
 * target, on the first command; each command is one line on its stdin, each reply one line on its
 * stdout, in order. A process that exits, answers a line that is not a JSON object, answers
 * without being asked, or floods, is ended and its error names the command it was sent; the next
 * command starts it afresh. A refusal (`ok: 0`) is the database's answer and leaves it running.
 */
export function execDocuments(config: ExecDatabaseConfig): DocumentDatabaseTarget {
  const program = config.argv[0] ?? '';
  const name = programName(config.argv);
  const description = `database process ${name}`;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxLine = config.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let session: Session | undefined;
  const serial = oneAtATime();
  /** What ended the last process while no command waited: the next command is told, then a new process starts. */
  let carried: SpecgateError | undefined;
  const decoder = new TextDecoder('utf-8', { fatal: true });

  const stderrNote = (s: Session): string => {
    const text = s.stderr.text().trim();
    return text ? `; its stderr began: ${cutText(text, 2000)}` : '';
  };

  /** Kills the process, its group and whatever it started elsewhere; the session is forgotten. */
  const end = (s: Session): void => {
    if (session === s) session = undefined;
    s.family.end();
    s.child.stdout?.destroy();
    s.child.stderr?.destroy();
  };

  /** The session fails: the waiting command (or else the next one) gets `error`, and the process ends. */
  const breakWith = (s: Session, error: SpecgateError): void => {
    const waiting = s.waiting;
    s.waiting = undefined;
    if (waiting) waiting.reject(error);
    else if (session === s) carried ??= error;
    end(s);
  };

  const onLine = (s: Session, bytes: Buffer): void => {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      breakWith(s, protocolError(s, 'answered a line that is not UTF-8'));
      return;
    }
    if (text.trim() === '') return;
    const waiting = s.waiting;
    if (!waiting) {
      breakWith(s, new SpecgateError('SG_TARGET_PROTOCOL', `${name} wrote a line no command asked for: ${JSON.stringify(cutText(text, QUOTED_CHARS))}; the protocol is one reply line per command line (exec-protocol.md)${stderrNote(s)}`, { program }));
      return;
    }
    let reply: unknown;
    try {
      reply = parseJsonLossless(text, `the reply of ${name}`);
    } catch (e) {
      if (e instanceof SpecgateError) return breakWith(s, e);
      return breakWith(s, protocolError(s, `answered a line that is not JSON: ${JSON.stringify(cutText(text, QUOTED_CHARS))}`));
    }
    if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) {
      breakWith(s, protocolError(s, `answered ${JSON.stringify(cutText(text, QUOTED_CHARS))}, which is not a JSON object`));
      return;
    }
    s.waiting = undefined;
    const doc = reply as Record<string, unknown>;
    if (doc['ok'] === 0 || doc['ok'] === false) waiting.reject(DatabaseAnswerError.refusedCommand(doc));
    else waiting.resolve(doc);
  };

  /** An error naming the command waiting (or the last one sent), what the process did, and its stderr. */
  const protocolError = (s: Session, what: string): SpecgateError => {
    const asked = s.waiting ? ` to the command ${commandLabel(s.waiting.doc)}` : '';
    return new SpecgateError('SG_TARGET_PROTOCOL', `${name} ${what}${asked}; each reply must be one JSON object on one line (exec-protocol.md)${stderrNote(s)}`, { program });
  };

  const start = (): Session => {
    const family = new ProcessFamily();
    let child: ChildProcess;
    try {
      child = spawn(program, config.argv.slice(1), {
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        cwd: config.cwd,
        env: family.env({ ...process.env, ...(config.env ?? {}) }),
      });
    } catch (e) {
      throw spawnError(name, e);
    }
    family.adopt(child);
    let markExited: () => void = () => undefined;
    const s: Session = {
      child,
      family,
      stderr: new StderrHead(config.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES),
      partial: [],
      partialBytes: 0,
      waiting: undefined,
      exited: new Promise<void>((resolve) => {
        markExited = resolve;
      }),
      hasExited: false,
    };
    child.on('error', (e) => {
      if (child.pid === undefined) {
        s.hasExited = true;
        markExited();
      }
      breakWith(s, child.pid === undefined ? spawnError(name, e) : protocolError(s, `failed (${e.message})`));
    });
    child.stdin?.on('error', () => undefined);
    child.stderr?.on('data', (chunk: Buffer) => s.stderr.add(chunk));
    child.stdout?.on('data', (chunk: Buffer) => {
      let from = 0;
      for (let nl = chunk.indexOf(0x0a, from); nl >= 0 && session === s; nl = chunk.indexOf(0x0a, from)) {
        const piece = chunk.subarray(from, nl);
        const line = s.partialBytes ? Buffer.concat([...s.partial, piece]) : piece;
        s.partial = [];
        s.partialBytes = 0;
        from = nl + 1;
        onLine(s, line);
      }
      if (session !== s || from >= chunk.length) return;
      const rest = chunk.subarray(from);
      s.partial.push(rest);
      s.partialBytes += rest.length;
      if (s.partialBytes > maxLine)
        breakWith(s, new SpecgateError('SG_TARGET_TOO_LARGE', `${name} wrote more than ${maxLine} bytes without ending the line${s.waiting ? ` while answering the command ${commandLabel(s.waiting.doc)}` : ''} and was ended; raise \`database.maxLineBytes\` in the target profile if replies are that large${stderrNote(s)}`, { program, maxLineBytes: maxLine }));
    });
    // the process is gone once its pipes close (every line it wrote read); a descendant that
    // keeps them open does not make it any less gone
    let gone = false;
    const onGone = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (gone) return;
      gone = true;
      if (session !== s) return;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code ?? '?'}`;
      breakWith(s, new SpecgateError('SG_TARGET_PROTOCOL', `${name} ${how}${s.waiting ? ` before answering the command ${commandLabel(s.waiting.doc)}` : ' between commands'}; a database process answers every command and runs until its stdin closes${stderrNote(s)}`, { program, exitCode: code, signal }));
    };
    child.on('exit', (code, signal) => {
      s.hasExited = true;
      markExited();
      setTimeout(() => onGone(code, signal), EXIT_CLOSE_MS).unref();
    });
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => onGone(code, signal));
    return s;
  };

  const run = (doc: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> => {
    signal?.throwIfAborted();
    if (carried) {
      const e = carried;
      carried = undefined;
      return Promise.reject(e);
    }
    const s = session ?? (session = start());
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => {
        breakWith(s, new SpecgateError('SG_TARGET_TIMEOUT', `${name} did not answer the command ${commandLabel(doc)} within ${timeoutMs} ms and was ended; raise \`database.timeoutMs\` in the target profile or the step's \`timeoutMs\` if it is just slow${stderrNote(s)}`, { program, timeoutMs }));
      }, timeoutMs);
      const onAbort = (): void => {
        // a reply still coming would be read as the next command's: the process starts afresh
        breakWith(s, signal?.reason instanceof SpecgateError ? signal.reason : new SpecgateError('SG_CASE_TIMEOUT', `the command ${commandLabel(doc)} was abandoned`));
      };
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      s.waiting = {
        doc,
        resolve: (reply) => (done(), resolve(reply)),
        reject: (e) => (done(), reject(e)),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      s.child.stdin?.write(`${encodeJson(doc)}\n`);
    });
  };

  return {
    description,
    command(doc, signal) {
      return serial(() => run(doc, signal));
    },
    async close() {
      const s = session;
      if (!s) return;
      session = undefined;
      if (s.waiting) {
        const w = s.waiting;
        s.waiting = undefined;
        w.reject(new SpecgateError('SG_CASE_TIMEOUT', `the database process was stopped before it answered the command ${commandLabel(w.doc)}`));
      }
      // closing stdin asks it to finish; whatever is left after a grace period is killed with its group
      s.child.stdin?.end();
      if (!s.hasExited) await Promise.race([s.exited, new Promise((r) => setTimeout(r, EXIT_GRACE_MS).unref())]);
      end(s);
      // wait for the kill to take (briefly): once close returns, the process is gone
      if (!s.hasExited) await Promise.race([s.exited, new Promise((r) => setTimeout(r, EXIT_GRACE_MS).unref())]);
    },
  };
}

function spawnError(program: string, e: unknown): SpecgateError {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  const why = code === 'ENOENT' ? 'was not found' : code === 'EACCES' ? 'is not executable (permission denied)' : `could not be started (${e instanceof Error ? e.message : String(e)})`;
  return new SpecgateError('SG_TARGET_UNREACHABLE', `the database process ${program} ${why}; check \`database.exec\` in the target profile`, { program, ...(code !== undefined ? { errorCode: code } : {}) }, { cause: e });
}

/** The process as messages name it: the script a Node or shell line runs, else the executable. */
function programName(argv: readonly string[]): string {
  if (argv[0] === process.execPath && argv[1] !== undefined) return argv[1];
  if (argv[0] === '/bin/sh' && argv[1] === '-c' && argv[2] !== undefined) return argv[2].replace(/ "\$@"$/, '');
  return argv[0] ?? '(no command)';
}
