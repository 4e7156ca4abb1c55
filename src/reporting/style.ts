/**
 * ANSI styling for the console reporter. Whether to color is decided by the caller (TTY,
 * NO_COLOR, --no-color); here a disabled style is the identity, so plain output is
 * byte-for-byte what a log file or a CI log viewer should get.
 */

/** Styling functions; each returns its argument unchanged when color is off. */
export interface Style {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

/** A {@link Style} that colors when `color` is true. */
export function makeStyle(color: boolean): Style {
  if (!color) {
    const id = (s: string): string => s;
    return { red: id, green: id, yellow: id, dim: id, bold: id };
  }
  return { red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}

/**
 * Word-wraps `text` to `width` columns, prefixing the first line with `indent` and the others
 * with `rest` (a hanging indent). Words longer than the width (URLs, JSON) are left whole:
 * breaking them would make them uncopyable.
 */
export function wrapText(text: string, width: number, indent: string, rest = indent): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/ +/)) {
      const pad = out.length === 0 ? indent : rest;
      if (line !== '' && pad.length + line.length + 1 + word.length > width) {
        out.push(pad + line);
        line = word;
      } else {
        line = line === '' ? word : `${line} ${word}`;
      }
    }
    out.push((out.length === 0 ? indent : rest) + line);
  }
  return out;
}
