/**
 * Reading markdown the way the documentation tests need it: relative links with their line,
 * the anchors GitHub gives headings, the text of code spans and blocks, and the specgate command
 * lines written in that code with the options they name.
 */

/** A link written in a markdown file: its target as written, and the 1-based line it is on. */
export interface Link {
  target: string;
  line: number;
}

/** A specgate command line found in code: the command, the options it names, its suite module. */
export interface CommandUse {
  command: string;
  options: string[];
  suiteModule?: string;
  text: string;
}

/** The specgate commands whose options the documentation may name. */
export const COMMANDS = ['run', 'list', 'serve', 'init', 'validate', 'merge', 'fuzz'] as const;

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** Splits a file into fenced code blocks and the prose lines between them (code lines blanked). */
function split(text: string): { prose: string[]; blocks: string[] } {
  const prose: string[] = [];
  const blocks: string[] = [];
  let fence: string | undefined;
  let block: string[] = [];
  for (const line of text.split('\n')) {
    const open = FENCE.exec(line)?.[1];
    if (fence === undefined && open !== undefined) {
      fence = open;
      block = [];
      prose.push('');
    } else if (fence !== undefined) {
      if (open !== undefined && open[0] === fence[0] && open.length >= fence.length && line.trim() === open) {
        fence = undefined;
        blocks.push(block.join('\n'));
      } else block.push(line);
      prose.push('');
    } else prose.push(line);
  }
  return { prose, blocks };
}

/** Inline code spans of the prose (a span may run over a line break, not over a blank line). */
function codeSpans(prose: string[]): string[] {
  const spans: string[] = [];
  for (const paragraph of prose.join('\n').split(/\n\s*\n/)) {
    for (const m of paragraph.matchAll(/(`+)([\s\S]+?)\1/g)) spans.push(m[2] ?? '');
  }
  return spans;
}

/** Every relative link and image of a markdown file, outside code. */
export function relativeLinks(text: string): Link[] {
  const links: Link[] = [];
  split(text).prose.forEach((raw, i) => {
    const line = raw.replace(/(`+)[^`]*?\1/g, '');
    const found = [...line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...line.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)];
    for (const m of found) {
      const target = m[1] ?? '';
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ target, line: i + 1 });
    }
  });
  return links;
}

/** GitHub's anchor for a heading's text: inline markup dropped, lower case, punctuation out, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a file's headings, numbered as GitHub numbers repeats (`x`, `x-1`, ...). */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of split(text).prose) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The specgate command lines in a file's code spans and blocks, with the options each names. */
export function commandUses(text: string): CommandUse[] {
  const { prose, blocks } = split(text);
  const uses: CommandUse[] = [];
  const start = new RegExp(`\\bspecgate(?:\\.js)?\\s+(${COMMANDS.join('|')})\\b`, 'g');
  // in a code span a line break is a space; in a block it ends the command unless a `\` continues it
  for (const code of [...blocks, ...codeSpans(prose).map((span) => span.replace(/\n/g, ' '))]) {
    for (const line of code.replace(/\\\n/g, ' ').split('\n')) {
      for (const m of line.matchAll(start)) {
        // the rest of this shell command: quoted arguments out, up to a comment or the next command
        const rest = line
          .slice((m.index ?? 0) + m[0].length)
          .replace(/"[^"]*"|'[^']*'/g, '""')
          .split(/\s#|;|&&|\|\||\||\s&(?:\s|$)|\bspecgate(?:\.js)?\s/)[0] ?? '';
        const options = [...rest.matchAll(/(?:^|[\s[(])(--[a-z][a-z0-9-]*)/g)].map((o) => o[1] ?? '');
        const suiteModule = /--suite-module[\s=]+(\S+)/.exec(rest)?.[1];
        uses.push({ command: m[1] ?? '', options, suiteModule, text: `${m[0]}${rest}`.trim() });
      }
    }
  }
  return uses;
}

/** The long options a command's `--help` lists. */
export function helpOptions(help: string): Set<string> {
  return new Set([...help.matchAll(/^\s+(?:-\w,\s+)?(--[a-z][a-z0-9-]*)/gm)].map((m) => m[1] ?? ''));
}
