import { CUT_MARK } from './text-cut.js';

/**
 * Keeps the first `cap` bytes of a stream (stderr of an exec target) and counts the rest.
 * The head is what explains a failure (the first error usually causes the others), and a
 * chatty plugin must not grow the report — or the harness's memory — without bound.
 */
export class StderrHead {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly cap: number) {}

  /** Adds a chunk, keeping only what still fits under the cap. */
  add(chunk: Buffer): void {
    const room = this.cap - this.kept;
    if (room >= chunk.length) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
    } else {
      if (room > 0) {
        this.chunks.push(chunk.subarray(0, room));
        this.kept += room;
      }
      this.dropped += chunk.length - Math.max(room, 0);
    }
  }

  /** Bytes that did not fit. */
  get droppedBytes(): number {
    return this.dropped;
  }

  /**
   * The kept head as UTF-8, with a note saying how much was dropped. The cut is marked: the
   * secrets are not known here, and the Redactor masks a piece of one found right before the mark.
   */
  text(): string {
    const bytes = Buffer.concat(this.chunks, this.kept);
    if (this.dropped === 0) return bytes.toString('utf8');
    // streaming decode leaves out a character the cap cut in two, so the text before the mark is intact
    const head = new TextDecoder('utf-8').decode(bytes, { stream: true });
    return `${head}${CUT_MARK}\n[specgate: ${this.dropped} more bytes of stderr dropped after the first ${this.kept}]`;
  }
}
