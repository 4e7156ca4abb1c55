/**
 * The plain-text description of a failure shared by the file reporters (DESIGN "Verdicts and
 * reports": requirement ID and text, expected, actual, the exchange, and for generated inputs
 * the seed, the shrunk counterexample and the replay command).
 */
import type { Assertion, CaseResult, Exchange, Failure, Level, PropertyInfo, RunResult } from '../engine/model.js';
import { curlCommand, curlNote, exchangesToShow } from './exchange-text.js';
import { showValue } from './json-text.js';
import { BODY_CAP, truncate } from './text.js';

/** What a reporter knows about a requirement when it describes a failure against it. */
export interface RequirementInfo {
  level: Level;
  text: string;
}

/** Looks requirements up by suite and ID. */
export type RequirementLookup = (suite: string, id: string) => RequirementInfo | undefined;

/** Indexes every requirement verdict of a run (suite-level lists first, then the run-level one). */
export function requirementLookup(result: RunResult): RequirementLookup {
  const byKey = new Map<string, RequirementInfo>();
  for (const v of [...result.suites.flatMap((s) => s.requirements), ...result.requirements]) {
    const key = `${v.suite}\u0000${v.id}`;
    if (!byKey.has(key)) byKey.set(key, { level: v.level, text: v.text });
  }
  return (suite, id) => byKey.get(`${suite}\u0000${id}`);
}

/**
 * Cap for one serialized value (expected, actual, request, ...) so that a single huge body
 * cannot push the replay command out of a capped failure message.
 */
const VALUE_CAP = 16 * 1024;

function value(label: string, v: unknown): string {
  return `${label} ${truncate(showValue(v), VALUE_CAP)}`;
}

/** The requirement header line: `REQ-ID (MUST): text`, or just the ID when it is unknown. */
export function requirementLine(id: string, info: RequirementInfo | undefined): string {
  return info ? `${id} (${info.level}): ${info.text}` : id;
}

/** Property-run lines: seed, path, counterexample, replay command. */
export function describeProperty(p: PropertyInfo): string[] {
  const lines = [`seed: ${p.seed} (runs: ${p.runs}${p.shrinks !== undefined ? `, shrinks: ${p.shrinks}` : ''})`];
  if (p.path !== undefined) lines.push(`path: ${p.path}`);
  if (p.counterexample !== undefined) lines.push(value('counterexample:', p.counterexample));
  if (p.replay !== undefined) lines.push(`replay: ${p.replay}`);
  return lines;
}

/** One exchange: its summary line, then request and response when captured, and for HTTP a curl command sending the request again. */
export function describeExchange(x: Exchange): string[] {
  const lines = [`exchange: ${x.summary}${x.durationMs !== undefined ? ` (${Math.round(x.durationMs)} ms)` : ''}`];
  if (x.request !== undefined) lines.push(value('request:', x.request));
  if (x.response !== undefined) lines.push(value('response:', x.response));
  const curl = curlCommand(x);
  if (curl !== undefined) {
    const note = curlNote(curl);
    lines.push(`try: ${curl}${note ? `\n${note}` : ''}`);
  }
  return lines;
}

/**
 * Full text of one failure: the requirement, then each failed assertion of it (numbered when
 * there are several) with expected and actual. The property block comes before the exchanges on
 * purpose: they are the bulkiest part, and if the whole body gets capped the replay command must
 * survive. `shown` gives, per assertion, the exchange to show (none where an earlier one showed
 * it); without it each assertion shows the exchange it was judged on.
 */
export function describeFailure(f: Failure, info: RequirementInfo | undefined, caseProperty?: PropertyInfo, shown?: readonly (Exchange | undefined)[]): string {
  const lines = [requirementLine(f.requirement, info)];
  const assertions = assertionsOf(f);
  const several = assertions.length > 1;
  if (several) lines.push(`${assertions.length} failed assertions of ${f.requirement} in this case:`);
  const property = f.property ?? caseProperty;
  const exchanges: string[] = [];
  assertions.forEach((a, i) => {
    const x = shown ? shown[i] : a.exchange;
    if (several) {
      lines.push(`${i + 1}) ${a.message}`);
      if (a.expected !== undefined) lines.push(`   ${value('expected:', a.expected)}`);
      if (a.actual !== undefined) lines.push(`   ${value('actual:', a.actual)}`);
      if (x) exchanges.push(`exchange of ${i + 1}):`, ...describeExchange(x));
    } else {
      lines.push(a.message);
      if (a.expected !== undefined) lines.push(value('expected:', a.expected));
      if (a.actual !== undefined) lines.push(value('actual:', a.actual));
      if (x) exchanges.push(...describeExchange(x));
    }
  });
  if (property) lines.push(...describeProperty(property));
  lines.push(...exchanges);
  return lines.join('\n');
}

/** The failed assertions a failure is made of: its list, or the failure itself when it has none. */
export function assertionsOf(f: Failure): Assertion[] {
  return f.assertions ?? [f];
}

/**
 * Every failure of a case, numbered when there are several, capped to {@link BODY_CAP}. Each shows
 * the exchange it was judged on (its own, else its case's last), once for failures judged on the
 * same one; the case's replay command comes first when no property failure gives one.
 */
export function describeCaseFailures(c: CaseResult, lookup: RequirementLookup): string {
  const shown = exchangesToShow(c);
  const parts = c.failures.map((f, i) => {
    const text = describeFailure(f, lookup(c.suite, f.requirement), c.property, shown[i] ?? []);
    return c.failures.length > 1 ? `failure ${i + 1} of ${c.failures.length}\n${text}` : text;
  });
  // first, so that a cap on the text never cuts it off
  const replayed = c.failures.some((f) => (f.property ?? c.property)?.replay !== undefined);
  if (c.outcome === 'failed' && !replayed && c.replay !== undefined) parts.unshift(`replay: ${c.replay}`);
  if (c.reason !== undefined) parts.unshift(c.reason);
  if (c.failures.length === 0 && c.exchanges.length > 0) {
    // No failure carries an exchange (errored case): show what was observed last.
    parts.push(['last exchanges:', ...c.exchanges.flatMap(describeExchange)].join('\n'));
  }
  return truncate(parts.join('\n\n'), BODY_CAP);
}
