import { PLACEHOLDER, neededBy, secretEnvName, someOf, type DeclaredVar } from '../declared-vars.js';
import type { AgentActionUse } from './agent-uses.js';
import { commentLines, yamlFlow, yamlKey } from './yaml-text.js';

/** The variable a profile's bridge actions post to (`POST <url>/<action>`), specgate's own convention. */
export const BRIDGE_VAR = 'agent_bridge_url';

/** What `specgate init` knows of a suite, all derived from its files. */
export interface InitFacts {
  suite: string;
  title?: string;
  vars: DeclaredVar[];
  /** User-agent actions the cases perform. */
  actions: AgentActionUse[];
  /** Cases that let time pass. */
  timeBound: string[];
  /** Spec header names the suite's requests send (beyond the standard ones). */
  headers: string[];
  /** The suite describes its HTTP API as data (so `paths:` applies). */
  apiTable: boolean;
  /** Cases that send a database commands (`command:` steps) or statements (`query:` steps). */
  database?: { commands: string[]; queries: string[] };
  /** How the profile names its JSON Schema (for editors). */
  schemaPath: string;
  /**
   * The run the profile is for, when it judges a selection (`--part`, `--requirement`): its flags
   * as written on the command line, and the cases it runs (the other facts are of those cases).
   */
  selection?: { flags: string; cases: ReadonlySet<string>; select: { parts?: string[]; requirements?: string[] } };
}

const V = '      ';

/**
 * A commented target profile for one suite, to fill in: every declared variable with its
 * description, the required ones marked and left as `<fill in>` (a made-up example would send
 * a run to a host that does not exist; a placeholder is caught before anything runs), secrets
 * read from the environment, optional ones commented out with an example; then the user agent
 * (written out when the cases need one, since a run stops without it), the clock hook and the
 * header and path mappings as commented blocks that say what they are for.
 */
export function initProfileText(f: InitFacts): string {
  const bridge = f.actions.length > 0;
  const lines = [
    `# yaml-language-server: $schema=${f.schemaPath}`,
    ...commentLines(`A target profile for the ${f.suite} suite${f.title ? ` (${f.title})` : ''}, written by \`specgate init ${f.suite}${f.selection ? ` ${f.selection.flags}` : ''}\`${f.selection ? `: for a run of that selection only, so only what its cases need is REQUIRED` : ''}.`, ''),
    '#',
    ...commentLines(
      `Fill in every value marked REQUIRED (each ${JSON.stringify(PLACEHOLDER)}); \`specgate validate <this file>\` says what is still missing, and \`specgate run --suite ${f.suite} --target <this file>\` runs ${f.selection ? 'the selection (select: below records it)' : 'the suite'}. Optional variables are commented out: uncomment those your target can give, or the cases that need them are skipped (the run summary names them). Secrets come from the environment (\${env:NAME}): export them before running specgate; their values never appear in a report or log.`,
      '',
    ),
    `name: my-${f.suite}-target`,
    'suites:',
    `  ${yamlKey(f.suite)}:`,
    ...selectLines(f),
    ...varLines(f, bridge),
    ...(bridge ? agentLines(f) : []),
    ...databaseLines(f),
    ...clockLines(f),
    ...headerLines(f),
  ];
  return `${lines.join('\n')}\n`;
}

/** The selection the profile is for (`select:`), which a run with it judges unless its command line selects. */
function selectLines(f: InitFacts): string[] {
  if (!f.selection) return [];
  const { parts, requirements } = f.selection.select;
  return [
    ...commentLines(`What a run with this profile judges (written from ${f.selection.flags}): only these cases run, the other requirements are reported not selected. --part, --requirement or --case on the command line win over it.`, '    '),
    '    select:',
    ...(parts?.length ? [`      parts: ${yamlFlow(parts)}`] : []),
    ...(requirements?.length ? [`      requirements: ${yamlFlow(requirements)}`] : []),
  ];
}

function varLines(f: InitFacts, bridge: boolean): string[] {
  const declaredBridge = f.vars.some((v) => v.name === BRIDGE_VAR);
  const active = f.vars.filter((v) => v.required || (bridge && v.name === BRIDGE_VAR));
  const out: string[] = [active.length || (bridge && !declaredBridge) ? '    vars:' : '    vars: {}   # no variable is required; uncomment the ones your target gives'];
  for (const v of f.vars) out.push(...oneVar(f, v, v.required || (bridge && v.name === BRIDGE_VAR)));
  if (bridge && !declaredBridge) {
    out.push(...commentLines(`REQUIRED by the agent: block below (a user-agent bridge: POST <url>/<action> with the parameters as JSON, answering the result as JSON); drop it if you write your own actions there.`, V));
    out.push(`${V}${BRIDGE_VAR}: ${yamlFlow(PLACEHOLDER)}`);
  }
  return out;
}

function oneVar(f: InitFacts, v: DeclaredVar, active: boolean): string[] {
  const suite = f.suite;
  const all = neededBy(v);
  const needed = f.selection ? all.filter((id) => f.selection?.cases.has(id)) : all;
  const selected = f.selection ? 'selected ' : '';
  const who = needed.length
    ? `needed by ${needed.length} ${selected}case${needed.length === 1 ? '' : 's'}${v.apiTable ? ' (some through the API table)' : ''}`
    : all.length ? `no selected case needs it (${all.length} case${all.length === 1 ? '' : 's'} outside ${f.selection?.flags ?? 'the selection'} do)` : 'no case reads it in its steps (typed checks may, in their code)';
  const kind = v.required ? 'REQUIRED' : active ? `REQUIRED by the agent: block below (or write your own actions there and drop it)` : 'optional';
  const skips = !v.required && v.skips.length ? ` Unset, ${v.skips.length} case${v.skips.length === 1 ? ' is' : 's are'} skipped: ${someOf(v.skips)}.` : '';
  const example = v.example !== undefined && !v.secret ? ` E.g. ${JSON.stringify(v.example)}.` : '';
  const secret = v.secret ? ` Secret: read from the environment variable ${secretEnvName(suite, v.name)}.` : '';
  const text = `${kind}${v.secret ? ', secret' : ''}. ${sentence(v.description)}${example}${secret} ${capitalise(who)}.${skips}`;
  const value = v.secret ? yamlFlow(`\${env:${secretEnvName(suite, v.name)}}`) : active ? yamlFlow(PLACEHOLDER) : yamlFlow(v.example ?? PLACEHOLDER);
  return [...commentLines(text, V), `${V}${active ? '' : '# '}${yamlKey(v.name)}: ${value}`];
}

function sentence(s: string): string {
  return s.endsWith('.') ? s : `${s}.`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The user agent, written out: a run of these cases stops without one. */
function agentLines(f: InitFacts): string[] {
  const users = new Set(f.actions.flatMap((a) => a.cases));
  const out = [
    ...commentLines(
      `The user agent (REQUIRED: ${users.size === 1 ? '1 case has' : `${users.size} cases have`} a user act on the target: ${f.actions.map((a) => a.name).join(', ')}). Say how each action happens on your side:`,
      '    ',
    ),
    '    #   mode: scripted     steps specgate runs (HTTP requests), one list per action, as below',
    '    #   mode: browser      page steps in headless Chromium: goto, fill, click, capture (docs/targets.md)',
    '    #   mode: interactive  a person at the terminal does each action when asked',
    ...commentLines(
      `As written, each action is one POST to a user-agent bridge at \${${BRIDGE_VAR}}/<action> with the action's parameters as JSON, capturing the keys of its JSON answer the cases read; keep it if your test deployment serves such a bridge, or replace the steps with your own (the parameters are variables in them; what they capture or set is the action's result).`,
      '    ',
    ),
    '    agent:',
    '      mode: scripted',
    '      actions:',
  ];
  for (const a of f.actions) {
    out.push(...commentLines(`${a.params.length ? `parameters: ${a.params.join(', ')}` : 'no parameters'}; ${a.results.length ? `the cases read: ${a.results.join(', ')}` : 'the cases read no result'} (${a.cases.length} case${a.cases.length === 1 ? '' : 's'})`, '        '));
    const request = { method: 'POST', url: `\${${BRIDGE_VAR}}/${a.name}`, json: Object.fromEntries(a.params.map((p) => [p, `\${${p}}`])) };
    out.push(`        ${yamlKey(a.name)}:`, `          - request: ${yamlFlow(request)}`);
    if (a.results.length) out.push(`            capture: ${yamlFlow(Object.fromEntries(a.results.map((k) => [k, `$.${k}`])))}`);
  }
  return out;
}

/** The database, written out: a run of cases that talk to one stops without it. */
function databaseLines(f: InitFacts): string[] {
  const commands = f.database?.commands ?? [];
  const queries = f.database?.queries ?? [];
  if (!commands.length && !queries.length) return [];
  const users = [...new Set([...commands, ...queries])];
  const kind = commands.length ? 'a document database (commands)' : 'a SQL database (statements)';
  return [
    ...commentLines(
      `The database (REQUIRED: ${users.length === 1 ? '1 case talks' : `${users.length} cases talk`} to ${kind}: ${someOf(users, 3)}). Give a url, or a program that speaks for your database (exec: one JSON command and one JSON reply per line, src/targets/database/exec-protocol.md). Point it at a scratch database: cases create what they need there.`,
      '    ',
    ),
    '    database:',
    `      url: ${yamlFlow(PLACEHOLDER)}   # e.g. ${commands.length ? 'mongodb://app:${env:DB_PASSWORD}@127.0.0.1:27017/scratch' : 'postgres://app:${env:DB_PASSWORD}@127.0.0.1:5432/scratch'}`,
    ...(commands.length ? ['      # or: url: postgres://...        (PostgreSQL with ICU: only the cases that compare strings apply)', '      # or: exec: "node ./my-adapter.mjs"   (in place of url)'] : []),
    '      # timeoutMs: 30000',
  ];
}

function clockLines(f: InitFacts): string[] {
  const n = f.timeBound.length;
  const why = n
    ? `${n === 1 ? '1 case lets' : `${n} cases let`} time pass (${someOf(f.timeBound, 3)}). With a hook specgate moves your target's clock instead of waiting; without one those cases are skipped, or wait in real time with --include-slow.`
    : 'no case of this suite lets time pass today, so it is not needed.';
  return [
    ...commentLines(`The clock hook (optional): ${why} specgate sends this request with \${ms} set to the milliseconds to let pass:`, '    '),
    '    # clock:',
    `    #   advance: ${yamlFlow({ method: 'POST', url: 'https://your-target.example/clock/advance', json: { ms: '${ms}' } })}`,
  ];
}

function headerLines(f: InitFacts): string[] {
  const named = f.headers.length ? f.headers : ['X-Spec-Header'];
  const out = [
    ...commentLines(
      `Header names (optional): the spec's neutral name -> the name your target uses, when they differ.${f.headers.length ? ` The cases send ${f.headers.join(', ')}.` : ''}`,
      '    ',
    ),
    '    # headers:',
    ...named.slice(0, 5).map((h) => `    #   ${yamlKey(h)}: ${yamlFlow(`X-Your-${h.replace(/^X-/i, '')}`)}`),
  ];
  if (f.apiTable) {
    out.push(
      ...commentLines("Path segments (optional): a word of the spec's paths -> the one your target uses, when the spec put a neutral word in place of a brand name.", '    '),
      '    # paths:',
      '    #   neutralsegment: yoursegment',
    );
  }
  out.push(
    ...commentLines("Field names (optional): a field name of the spec's schemas, or a form field or query parameter the cases send -> the one your target uses in the bodies, forms and queries it reads and in its answers, when they differ.", '    '),
    '    # fields:',
    '    #   neutral_field: your_field',
  );
  out.push(...commentLines('Limits (optional; these are the defaults): per-request deadline and response body cap.', '    '), '    # http: { timeoutMs: 10000, maxBodyBytes: 8388608 }');
  return out;
}
