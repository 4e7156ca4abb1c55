import { BoundedStringMemo } from './bounded-string-memo.js';

/**
 * ICU4X's comparison called straight into its WebAssembly, with each string copied into the
 * module's memory once instead of on every call.
 *
 * The `icu` package's `Collator.compare` copies both strings into WebAssembly memory, wraps each
 * in a slice, compares and frees all four allocations: about three times the cost of the
 * comparison itself. Its generated binding (`lib/diplomat-wasm.mjs`, not among the package's
 * exports) hands out the module's exports: with them a string is copied once, kept in a bounded
 * memo shared by every collator, and compared as a pair of slice addresses. The binding's slice
 * is two 32-bit words, the address of the UTF-16 code units and their count, as its own
 * `DiplomatBuf.sliceWrapper` writes it.
 *
 * Nothing depends on it being there: when the file cannot be loaded, lacks a function, or a
 * collator compared both ways disagrees on a sample, the binding's own `compare` is used.
 */
interface IcuExports {
  /** The module's memory (a WebAssembly.Memory; its buffer is replaced when it grows). */
  readonly memory: { readonly buffer: ArrayBuffer };
  diplomat_alloc(size: number, align: number): number;
  diplomat_free(ptr: number, size: number, align: number): void;
  icu4x_Collator_compare_utf16_mv1(collator: number, left: number, right: number): number;
}

/** A string copied into WebAssembly memory: the slice's address and what to free. */
interface Copied {
  readonly slice: number;
  readonly units: number;
  readonly unitBytes: number;
}

let exports: IcuExports | undefined;
let copies: BoundedStringMemo<Copied> | undefined;

/** Entries per generation of the memo of copied strings (at most twice as many are held). */
const COPY_GENERATION = 16_384;
/** Longer strings are compared through the binding, never kept in WebAssembly memory. */
const COPY_MAX_LENGTH = 256;

function isIcuExports(x: unknown): x is IcuExports {
  if (typeof x !== 'object' || x === null) return false;
  const e = x as Record<string, unknown>;
  const memory = e['memory'] as { buffer?: unknown } | undefined;
  return typeof memory === 'object' && memory !== null && memory.buffer instanceof ArrayBuffer && typeof e['diplomat_alloc'] === 'function' && typeof e['diplomat_free'] === 'function' && typeof e['icu4x_Collator_compare_utf16_mv1'] === 'function';
}

/** Loads the binding's exports once the package itself is loaded; without them, nothing changes. */
export async function loadIcu4xDirect(): Promise<void> {
  try {
    const module = (await import(new URL('./diplomat-wasm.mjs', import.meta.resolve('icu')).href)) as { default?: unknown };
    if (isIcuExports(module.default)) exports = module.default;
  } catch {
    exports = undefined;
  }
}

function copy(wasm: IcuExports, s: string): Copied {
  const unitBytes = s.length * 2;
  const units = wasm.diplomat_alloc(unitBytes, 2);
  const view = new Uint16Array(wasm.memory.buffer, units, s.length);
  for (let i = 0; i < s.length; i++) view[i] = s.charCodeAt(i);
  const slice = wasm.diplomat_alloc(8, 4);
  const words = new Uint32Array(wasm.memory.buffer, slice, 2);
  words[0] = units;
  words[1] = s.length;
  return { slice, units, unitBytes };
}

/** Strings both sides are tried on before the direct path is trusted. */
const SAMPLE = ['', 'a', 'A', 'b', '\u00e1', 'a\u0301', 'a b', 'a-b', '\u4E00', '\u{20000}', '1', '\u0661', 'ss', '\u00df', '\uD800'];

/**
 * The comparison of an ICU4X collator (its `ffiValue` handle and its own `compare`) through the
 * module's exports, or its own `compare` when those are not loaded or disagree with it.
 */
export function directCompare(handle: number, own: (a: string, b: string) => number): (a: string, b: string) => number {
  const wasm = exports;
  if (wasm === undefined) return own;
  copies ??= new BoundedStringMemo((s) => copy(wasm, s), {
    generation: COPY_GENERATION,
    maxKeyLength: COPY_MAX_LENGTH,
    drop: (c) => {
      wasm.diplomat_free(c.slice, 8, 4);
      wasm.diplomat_free(c.units, c.unitBytes, 2);
    },
  });
  const memo = copies;
  const compare = (a: string, b: string): number => {
    if (memo.refuses(a) || memo.refuses(b)) return own(a, b);
    const x = memo.get(a);
    const y = memo.get(b);
    return wasm.icu4x_Collator_compare_utf16_mv1(handle, x.slice, y.slice);
  };
  try {
    for (const a of SAMPLE) for (const b of SAMPLE) if (compare(a, b) !== own(a, b)) return own;
  } catch {
    return own;
  }
  return compare;
}
