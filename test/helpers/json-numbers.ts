/**
 * The number literals of JSON text, as written: what a reader in another language parses. A
 * literal that does not come back the same through a double (`Number`) is one a JSON reader
 * rounds (JavaScript, jq) or refuses (Python, past 4,300 digits).
 */

/** Every number literal of `text`, outside strings, in order. */
export function numberLiterals(text: string): string[] {
  const out: string[] = [];
  const literal = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') {
      // skip the string: a backslash escapes the next character
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      literal.lastIndex = i;
      const m = literal.exec(text);
      if (m) {
        out.push(m[0]);
        i += m[0].length - 1;
      }
    }
  }
  return out;
}

/** The literals of `text` a double does not hold as written. */
export function inexactNumbers(text: string): string[] {
  return numberLiterals(text).filter((n) => JSON.stringify(Number(n)) !== n);
}
