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

  /** The kept head as UTF-8, with a note saying how much was dropped. */
  text(): string {
    const head = Buffer.concat(this.chunks, this.kept).toString('utf8');
    return this.dropped === 0 ? head : `${head}\n[specgate: ${this.dropped} more bytes of stderr dropped after the first ${this.kept}]`;
  }
}
