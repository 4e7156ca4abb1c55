/**
 * A spec document's outline: each "## X" heading, its "### Y" headings, and the lines under each
 * (the lines directly under "## X", before its first "### ", sit under ""). The suites' catalog
 * tests read it to check that every `source:` names a place the spec has.
 */
export function specOutline(text: string): Map<string, Map<string, string[]>> {
  const top = new Map<string, Map<string, string[]>>();
  let h2: Map<string, string[]> | undefined;
  let lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^(#{2,3}) (.+)$/.exec(line);
    if (m?.[1] === '##') top.set(m[2] ?? '', (h2 = new Map([['', (lines = [])]])));
    else if (m?.[1] === '###' && h2) h2.set(m[2] ?? '', (lines = []));
    else lines.push(line);
  }
  return top;
}
