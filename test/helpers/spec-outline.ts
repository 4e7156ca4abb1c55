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

/**
 * A requirement's `source:` read as a place of a spec document: `file#H2/H3/item`, or
 * `file#H2/item` for a rule numbered directly under "## H2" (a section with no "###").
 */
export interface SpecPlace {
  file: string | undefined;
  /** What follows the `#`. */
  place: string;
  /** How many `/`-separated parts the place has. */
  depth: number;
  h2: string;
  /** The "###" heading: '' when the place names none, or numbers a rule directly under "## h2". */
  h3: string;
  /** The numbered rule, when the place names one. */
  item: string | undefined;
  /** Whether the place numbers a rule directly under "## h2". */
  numberedHere: boolean;
}

/** Reads a requirement's `source:` as a {@link SpecPlace}. */
export function specPlace(source: string): SpecPlace {
  const [file, place = ''] = source.split('#');
  const parts = place.split('/');
  const [h2 = '', second, third] = parts;
  const numberedHere = second !== undefined && /^\d+$/.test(second);
  return { file, place, depth: parts.length, h2, h3: numberedHere ? '' : (second ?? ''), item: numberedHere ? second : third, numberedHere };
}
