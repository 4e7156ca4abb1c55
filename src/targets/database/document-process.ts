import { spawn, type ChildProcess } from 'node:child_process';
import { SpecgateError } from '../../errors.js';
import { ProcessFamily } from '../process-family.js';
import { encodeJson } from '../request-body.js';
import { StderrHead } from '../stderr-head.js';
import { cutText } from '../text-cut.js';
import { commandLabel, floodError, goneError, protocolError, spawnError, timeoutError, type ProcessNaming } from './document-process-errors.js';
import { readReplyLine } from './reply-line.js';
import { DatabaseAnswerError } from './database-errors.js';
import type { ExecDatabaseConfig } from './types.js';

const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_STDERR_BYTES = 64 * 1024;
/** How long a process may take to exit by itself once its stdin is closed, before it is killed. */
const EXIT_GRACE_MS = 1_000;
/** After the process exited, how long its pipes may stay open before it counts as gone anyway. */
const EXIT_CLOSE_MS = 250;

/** The command waiting for its reply. */
interface Waiting {
  doc: Record<string, unknown>;
  resolve: (reply: Record<string, unknown>) => void;
  reject: (e: unknown) => void;
}

/** The target a process belongs to: which process is its current one, and what the next command is told. */
export interface ProcessOwner {
  /** Whether `p` is the owner's current process (a process being stopped or ended no longer is). */
  isCurrent(p: DocumentProcess): boolean;
  /** `p` ended: the owner forgets it if it is its current process. */
  forget(p: DocumentProcess): void;
  /** `p` failed while no command waited: the owner's next command gets `error`. */
  carry(error: SpecgateError): void;
}

/**
 * One started database process (exec-protocol.md) and what it has said so far: command lines go
 * to its stdin, reply lines come from its stdout; anything else breaks it, which ends it.
 */
export class DocumentProcess {
  /** The process and everything it started. */
  private readonly family = new ProcessFamily();
  private readonly program: string;
  private readonly maxLine: number;
  private readonly child: ChildProcess;
  private readonly stderr: StderrHead;
  /** Bytes of the line being read (no newline yet). */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private waiting: Waiting | undefined;
  private markExited: () => void = () => undefined;
  private readonly exited = new Promise<void>((resolve) => {
    this.markExited = resolve;
  });
  private hasExited = false;
  /** Whether the process has counted as gone (its pipes closed, or a while after it exited). */
  private gone = false;

  /** Starts the process; one that cannot be spawned throws SG_TARGET_UNREACHABLE. */
  constructor(
    private readonly config: ExecDatabaseConfig,
    private readonly name: string,
    private readonly owner: ProcessOwner,
  ) {
    this.program = config.argv[0] ?? '';
    this.maxLine = config.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.child = this.spawnChild();
    this.family.adopt(this.child);
    this.stderr = new StderrHead(config.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES);
    this.listen();
  }

  /**
   * Sends one command line; settles with its reply, or with what broke the process meanwhile
   * (no reply within `timeoutMs`, `signal` aborted, a protocol error).
   */
  send(doc: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.breakWith(timeoutError(this.naming(), doc, timeoutMs));
      }, timeoutMs);
      const onAbort = (): void => {
        // a reply still coming would be read as the next command's: the process starts afresh
        this.breakWith(signal?.reason instanceof SpecgateError ? signal.reason : new SpecgateError('SG_CASE_TIMEOUT', `the command ${commandLabel(doc)} was abandoned`));
      };
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      this.waiting = {
        doc,
        resolve: (reply) => (done(), resolve(reply)),
        reject: (e) => (done(), reject(e)),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.child.stdin?.write(`${encodeJson(doc)}\n`);
    });
  }

  /**
   * Stops the process (its owner has already let go of it): the waiting command is told, stdin is
   * closed to ask it to finish, and whatever is left after a grace period is killed with its group.
   */
  async stop(): Promise<void> {
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w.reject(new SpecgateError('SG_CASE_TIMEOUT', `the database process was stopped before it answered the command ${commandLabel(w.doc)}`));
    }
    this.child.stdin?.end();
    if (!this.hasExited) await this.exitOrGrace();
    this.end();
    // wait for the kill to take (briefly): once stop returns, the process is gone
    if (!this.hasExited) await this.exitOrGrace();
  }

  /** Resolves when the process exits or the grace period is over, whichever comes first. */
  private exitOrGrace(): Promise<unknown> {
    return Promise.race([this.exited, new Promise((r) => setTimeout(r, EXIT_GRACE_MS).unref())]);
  }

  /** Spawns the program detached (its own session and process group), with the family's tag. */
  private spawnChild(): ChildProcess {
    try {
      return spawn(this.program, this.config.argv.slice(1), {
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        cwd: this.config.cwd,
        env: this.family.env({ ...process.env, ...(this.config.env ?? {}) }),
      });
    } catch (e) {
      throw spawnError(this.name, e);
    }
  }

  /** Attaches the handlers for the process's errors, output and exit. */
  private listen(): void {
    const child = this.child;
    child.on('error', (e) => {
      if (child.pid === undefined) {
        this.hasExited = true;
        this.markExited();
      }
      this.breakWith(child.pid === undefined ? spawnError(this.name, e) : this.protocolError(`failed (${e.message})`));
    });
    child.stdin?.on('error', () => undefined);
    child.stderr?.on('data', (chunk: Buffer) => this.stderr.add(chunk));
    child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
    // the process is gone once its pipes close (every line it wrote read); a descendant that
    // keeps them open does not make it any less gone
    child.on('exit', (code, signal) => {
      this.hasExited = true;
      this.markExited();
      setTimeout(() => this.onGone(code, signal), EXIT_CLOSE_MS).unref();
    });
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => this.onGone(code, signal));
  }

  /** Splits stdout into lines, each handled in turn; a line longer than allowed breaks the process. */
  private onStdout(chunk: Buffer): void {
    let from = 0;
    for (let nl = chunk.indexOf(0x0a, from); nl >= 0 && this.owner.isCurrent(this); nl = chunk.indexOf(0x0a, from)) {
      const piece = chunk.subarray(from, nl);
      const line = this.partialBytes ? Buffer.concat([...this.partial, piece]) : piece;
      this.partial = [];
      this.partialBytes = 0;
      from = nl + 1;
      this.onLine(line);
    }
    if (!this.owner.isCurrent(this) || from >= chunk.length) return;
    const rest = chunk.subarray(from);
    this.partial.push(rest);
    this.partialBytes += rest.length;
    if (this.partialBytes > this.maxLine)
      this.breakWith(floodError(this.naming(), this.maxLine, this.waiting?.doc));
  }

  /** One reply line: settles the waiting command, or breaks the process if the line is not a reply to one. */
  private onLine(bytes: Buffer): void {
    const waiting = this.waiting;
    const line = readReplyLine(bytes, this.name, waiting?.doc, () => this.naming());
    if ('error' in line) return this.breakWith(line.error);
    if (!('reply' in line) || !waiting) return;
    this.waiting = undefined;
    const doc = line.reply;
    if (doc['ok'] === 0 || doc['ok'] === false) waiting.reject(DatabaseAnswerError.refusedCommand(doc));
    else waiting.resolve(doc);
  }

  /** The process exited and its pipes closed (or stayed open too long): if still current, it broke. */
  private onGone(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.gone) return;
    this.gone = true;
    if (!this.owner.isCurrent(this)) return;
    this.breakWith(goneError(this.naming(), code, signal, this.waiting?.doc));
  }

  /** The process fails: the waiting command (or else the owner's next one) gets `error`, and the process ends. */
  private breakWith(error: SpecgateError): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting.reject(error);
    else if (this.owner.isCurrent(this)) this.owner.carry(error);
    this.end();
  }

  /** Kills the process, its group and whatever it started elsewhere; the owner forgets it. */
  private end(): void {
    this.owner.forget(this);
    this.family.end();
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }

  /** An error naming the command waiting (or the last one sent), what the process did, and its stderr. */
  private protocolError(what: string): SpecgateError {
    return protocolError(this.naming(), what, this.waiting?.doc);
  }

  /** The process as its errors name it, with its stderr so far. */
  private naming(): ProcessNaming {
    return { name: this.name, program: this.program, stderrNote: this.stderrNote() };
  }

  /** The start of the process's stderr, as a message ends with it (empty if it wrote none). */
  private stderrNote(): string {
    const text = this.stderr.text().trim();
    return text ? `; its stderr began: ${cutText(text, 2000)}` : '';
  }
}
