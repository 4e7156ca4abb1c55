import type { Version } from '../../../reference/plugin/types.js';

/**
 * The compiler's own version, as it prints it (`protoc --version` prints `libprotoc 3.21.12`),
 * against the one it sends plugins in CodeGeneratorRequest.compiler_version (spec A, Version:
 * major, minor, patch, and a suffix such as `rc2`, empty for stable releases).
 */

/** A version read from a compiler's `--version` output: two or three numbers and a suffix. */
export interface PrintedVersion {
  text: string;
  numbers: number[];
  suffix: string;
}

/** The first version number in `output` (`3.21.12`, `25.1`, `3.21.0-rc2`), or undefined. */
export function parsePrintedVersion(output: string): PrintedVersion | undefined {
  const m = /(?<![\w.])(\d+)\.(\d+)(?:\.(\d+))?(?:-?((?:alpha|beta|rc|dev|pre)[\w.-]*))?/i.exec(output);
  if (!m) return undefined;
  const numbers = [m[1], m[2], m[3]].filter((n): n is string => n !== undefined).map(Number);
  return { text: m[0], numbers, suffix: m[4] ?? '' };
}

/** A suffix without the separator a compiler may print before it (`-rc2` and `rc2` are one suffix). */
function bareSuffix(s: string | undefined): string {
  return (s ?? '').replace(/^[-.]/, '');
}

/**
 * What differs between the version sent and the version printed; empty when they agree.
 * Printed with three numbers, they are major, minor and patch. Printed with two, they are minor
 * and patch: protoc 22 and later print `libprotoc 25.1` and send major 4 (the major version of
 * its runtime library), minor 25, patch 1, so only minor and patch can be compared.
 */
export function versionDifferences(sent: Version, printed: PrintedVersion): string[] {
  const out: string[] = [];
  const [a, b, c] = printed.numbers;
  const pairs: [string, number | undefined, number | undefined][] = printed.numbers.length >= 3
    ? [['major', sent.major, a], ['minor', sent.minor, b], ['patch', sent.patch, c]]
    : [['minor', sent.minor, a], ['patch', sent.patch, b]];
  // absent int32 fields read as 0, as in proto2 with no default
  for (const [field, got, want] of pairs) if ((got ?? 0) !== want) out.push(`${field} is ${got ?? '(absent, 0)'}, the compiler prints ${want ?? '?'}`);
  if (bareSuffix(sent.suffix) !== bareSuffix(printed.suffix)) {
    out.push(`suffix is ${JSON.stringify(sent.suffix ?? '')}, the compiler prints ${printed.suffix === '' ? 'a stable release (no suffix)' : JSON.stringify(printed.suffix)}`);
  }
  return out;
}
