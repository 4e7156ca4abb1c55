/**
 * The README's walkthrough for an HTTP service ("Pointing specgate at your implementation"), run
 * as written: the commands of its shell block in their order, against the reference of the suite
 * it names, served by `specgate serve` on an ephemeral port. The one step a person does by hand,
 * filling in each "<fill in>" of the profile `init` wrote, takes the values the served reference
 * printed; an exported secret takes the value printed for the variable that reads it. Needs
 * `npm run build`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { assertBuilt, runCli, tempDir } from './cli.js';
import { serveReference, type ServedReference } from './served-reference.js';
import { splitCommand } from './shell-words.js';

/** The fenced blocks of the README's paragraph on HTTP services, by language. */
function walkthrough(): { sh: string[]; yaml: string[] } {
  const readme = readFileSync(fromRoot('README.md'), 'utf8');
  const start = readme.indexOf('**An HTTP service**');
  const end = readme.indexOf('\n**', start + 1);
  if (start < 0 || end < 0) throw new Error('README.md has no "**An HTTP service**" paragraph');
  const blocks = [...readme.slice(start, end).matchAll(/```(sh|yaml)\n([\s\S]*?)```/g)];
  const lines = (lang: string): string[] => (blocks.find((b) => b[1] === lang)?.[2] ?? '').split('\n').filter((l) => l.trim());
  return { sh: lines('sh'), yaml: lines('yaml') };
}

/** A shell line without its trailing comment. */
const uncommented = (line: string): string => line.replace(/\s+#\s.*$/, '').trim();

const tmp = tempDir('specgate-readme-');
const { sh, yaml } = walkthrough();
/** The suite the walkthrough's `init` names: the one whose reference stands in for "your implementation". */
const suite = /^npx specgate init (\S+)/.exec(sh[0] ?? '')?.[1];
let served: ServedReference | undefined;
beforeAll(async () => {
  assertBuilt();
  if (!suite) throw new Error(`the walkthrough does not start with npx specgate init <suite>: ${sh[0] ?? '(no shell block)'}`);
  served = await serveReference([suite], tmp.dir);
}, 90_000);
afterAll(async () => {
  if (served) expect(await served.stop()).toBe(0);
  tmp.remove();
});

describe("the README's walkthrough for an HTTP service", () => {
  it('init, fill in, validate, run with the HTML report: each command as written, exit 0, a conformant report', async () => {
    const printed = served?.printed ?? {};
    const env: Record<string, string> = {};
    let profile: string | undefined;
    let html: string | undefined;
    const ran: string[] = [];
    for (const line of sh.map(uncommented)) {
      const exported = /^export ([A-Z_][A-Z0-9_]*)=\.\.\.$/.exec(line);
      if (exported) {
        // the secret is the value of the variable the profile reads from this environment variable
        const name = exported[1] as string;
        const reader = new RegExp(`^ +([a-z_]+): "\\$\\{env:${name}\\}"$`, 'm').exec(readFileSync(join(tmp.dir, profile ?? ''), 'utf8'))?.[1];
        const value = reader === undefined ? undefined : printed[reader];
        if (value === undefined) throw new Error(`the profile reads ${name} into no variable the served reference printed`);
        env[name] = value;
        continue;
      }
      const [npx, bin, command, ...args] = splitCommand(line);
      expect([npx, bin], line).toEqual(['npx', 'specgate']);
      const res = await runCli([command as string, ...args], { cwd: tmp.dir, env });
      expect([res.code, res.stderr], `${line}\n${res.stdout}`).toEqual([0, command === 'init' ? expect.stringContaining('specgate: wrote') : '']);
      ran.push(command as string);
      if (command === 'init') {
        profile = args[args.indexOf('--out') + 1];
        const file = join(tmp.dir, profile ?? '');
        // filling in, as a person does: every "<fill in>" gets the value the served reference printed
        const filled = readFileSync(file, 'utf8').replace(/^( +)([a-z_]+): "<fill in>"$/gm, (_all, indent: string, name: string) => {
          const value = printed[name];
          if (value === undefined) throw new Error(`the served reference printed no ${name}`);
          return `${indent}${name}: ${JSON.stringify(value)}`;
        });
        expect(filled).not.toMatch(/^[^#\n]*"<fill in>"/m);
        writeFileSync(file, filled);
      }
      const report = args.find((a) => a.startsWith('html='));
      if (command === 'run' && report) html = join(tmp.dir, report.slice('html='.length));
    }
    expect(ran).toEqual(['init', 'validate', 'run']);
    if (!html) throw new Error('the walkthrough\'s run writes no HTML report');
    expect(existsSync(html)).toBe(true);
    expect(readFileSync(html, 'utf8')).toMatch(/<div class="verdict exit-0" id="verdict">exit code 0: conformant at the gating level/);
    // the profile the README shows is the one init writes: its name and how a secret is read
    const written = readFileSync(join(tmp.dir, profile ?? ''), 'utf8');
    for (const l of yaml.map(uncommented).filter((x) => x.startsWith('name:') || x.includes('${env:'))) expect(written).toContain(l);
  }, 240_000);
});
