/**
 * A per-string memo of bounded size, for what a comparator derives from each string it sees.
 *
 * A sort of n strings makes about n·log2(n) comparisons over n strings, so work done once per
 * string instead of once per comparison is done about log2(n) times less. The memo keeps two
 * generations: entries go into the young one; when it is full it becomes the old one (the previous
 * old one is dropped) and a string found only in the old one moves back into the young one. So it
 * holds at most `2 × generation` entries, keeps what is in use, and a stream of distinct strings
 * cannot make it grow. Strings longer than `maxKeyLength` are never kept: the memo would retain
 * them, and deriving from a long string costs little next to comparing it.
 *
 * A least-recently-used cache (the lru-cache package) would do the same job, but it updates its
 * recency list on every hit, and a sort looks up two strings on every comparison; a plain Map hit
 * here is the cheapest lookup there is.
 */
export interface BoundedStringMemoOptions<V> {
  /** Entries per generation. */
  readonly generation: number;
  /** Longer strings are derived every time, never kept. */
  readonly maxKeyLength: number;
  /** Called on each value the memo lets go of (to free what it holds outside the JavaScript heap). */
  readonly drop?: (value: V) => void;
}

export class BoundedStringMemo<V> {
  readonly #derive: (key: string) => V;
  readonly #generation: number;
  readonly #maxKeyLength: number;
  readonly #drop: ((value: V) => void) | undefined;
  #young = new Map<string, V>();
  #old = new Map<string, V>();

  constructor(derive: (key: string) => V, options: BoundedStringMemoOptions<V>) {
    this.#derive = derive;
    this.#generation = Math.max(1, options.generation);
    this.#maxKeyLength = options.maxKeyLength;
    this.#drop = options.drop;
  }

  /** Whether `key` is too long to be kept (get derives it every time). */
  refuses(key: string): boolean {
    return key.length > this.#maxKeyLength;
  }

  /** The value derived from `key`, derived now unless remembered. */
  get(key: string): V {
    const hit = this.#young.get(key);
    if (hit !== undefined) return hit;
    if (key.length > this.#maxKeyLength) return this.#derive(key);
    let value = this.#old.get(key);
    if (value === undefined) value = this.#derive(key);
    else this.#old.delete(key);
    if (this.#young.size >= this.#generation) {
      const drop = this.#drop;
      if (drop !== undefined) for (const dropped of this.#old.values()) drop(dropped);
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, value);
    return value;
  }

  /** How many entries are held (at most twice the generation size). */
  get size(): number {
    return this.#young.size + this.#old.size;
  }
}
