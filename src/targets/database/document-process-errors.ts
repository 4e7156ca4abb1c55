/**
 * The errors a database process speaking JSON lines (exec-protocol.md) ends with: each names the
 * process, the command it was answering, and the start of its stderr.
 */
import { SpecgateError } from '../../errors.js';
import { cutText } from '../text-cut.js';

/** How much of an unexpected line an error message quotes. */
const QUOTED_CHARS = 200;

/** The process as an error names it: its name in messages, its executable, and the note on its stderr. */
export interface ProcessNaming {
  name: string;
  program: string;
  /** `; its stderr began: ...`, or empty. */
  stderrNote: string;
}

/** The command as messages name it: its operation and collection (`find "names"`). */
export function commandLabel(doc: Record<string, unknown>): string {
  const first = Object.entries(doc)[0];
  if (!first) return 'the empty command';
  const [name, value] = first;
  return typeof value === 'string' ? `${name} ${JSON.stringify(value)}` : name;
}

/** The start of a line the process wrote, quoted for a message. */
export function quoteLine(text: string): string {
  return JSON.stringify(cutText(text, QUOTED_CHARS));
}

/** A reply that breaks the protocol (`what` the process did), naming the command it answered, if one waited. */
export function protocolError(p: ProcessNaming, what: string, waiting: Record<string, unknown> | undefined): SpecgateError {
  const asked = waiting ? ` to the command ${commandLabel(waiting)}` : '';
  return new SpecgateError('SG_TARGET_PROTOCOL', `${p.name} ${what}${asked}; each reply must be one JSON object on one line (exec-protocol.md)${p.stderrNote}`, { program: p.program });
}

/** A line written while no command waited. */
export function unaskedLineError(p: ProcessNaming, text: string): SpecgateError {
  return new SpecgateError('SG_TARGET_PROTOCOL', `${p.name} wrote a line no command asked for: ${quoteLine(text)}; the protocol is one reply line per command line (exec-protocol.md)${p.stderrNote}`, { program: p.program });
}

/** A line longer than `maxLine` bytes. */
export function floodError(p: ProcessNaming, maxLine: number, waiting: Record<string, unknown> | undefined): SpecgateError {
  return new SpecgateError('SG_TARGET_TOO_LARGE', `${p.name} wrote more than ${maxLine} bytes without ending the line${waiting ? ` while answering the command ${commandLabel(waiting)}` : ''} and was ended; raise \`database.maxLineBytes\` in the target profile if replies are that large${p.stderrNote}`, { program: p.program, maxLineBytes: maxLine });
}

/** The process exited (or was killed) while it was still the target's. */
export function goneError(p: ProcessNaming, code: number | null, signal: NodeJS.Signals | null, waiting: Record<string, unknown> | undefined): SpecgateError {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code ?? '?'}`;
  return new SpecgateError('SG_TARGET_PROTOCOL', `${p.name} ${how}${waiting ? ` before answering the command ${commandLabel(waiting)}` : ' between commands'}; a database process answers every command and runs until its stdin closes${p.stderrNote}`, { program: p.program, exitCode: code, signal });
}

/** No reply to `doc` within `timeoutMs`. */
export function timeoutError(p: ProcessNaming, doc: Record<string, unknown>, timeoutMs: number): SpecgateError {
  return new SpecgateError('SG_TARGET_TIMEOUT', `${p.name} did not answer the command ${commandLabel(doc)} within ${timeoutMs} ms and was ended; raise \`database.timeoutMs\` in the target profile or the step's \`timeoutMs\` if it is just slow${p.stderrNote}`, { program: p.program, timeoutMs });
}

/** The error for a process that could not be started, saying why when the system said. */
export function spawnError(program: string, e: unknown): SpecgateError {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  const why = code === 'ENOENT' ? 'was not found' : code === 'EACCES' ? 'is not executable (permission denied)' : `could not be started (${e instanceof Error ? e.message : String(e)})`;
  return new SpecgateError('SG_TARGET_UNREACHABLE', `the database process ${program} ${why}; check \`database.exec\` in the target profile`, { program, ...(code !== undefined ? { errorCode: code } : {}) }, { cause: e });
}
