/**
 * Splits a POSIX shell command line into words: whitespace separates, single quotes keep text
 * as is, double quotes keep text with `\"` and `\\` escapes, a backslash outside quotes escapes
 * the next character. Enough to run the replay commands specgate prints (no variables, globs).
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${line}`);
      word += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line.charAt(j) !== '"'; j++) {
        if (line.charAt(j) === '\\' && (line.charAt(j + 1) === '"' || line.charAt(j + 1) === '\\')) j++;
        word += line.charAt(j);
      }
      if (j >= line.length) throw new Error(`unclosed " in: ${line}`);
      i = j;
      inWord = true;
    } else if (c === '\\') {
      word += line.charAt(++i);
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
