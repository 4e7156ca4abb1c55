import type { LoadedSuite } from '../src/engine/model.js';
import type { TraceSummary } from '../src/engine/model.js';
import { SHARED, traceSummary } from '../src/engine/trace/trace-coverage.js';

/**
 * `specgate list --trace`: for each suite, every statement of the specification parts it
 * judges (trace.yaml), section by section, with the requirements that judge it or why none
 * can, and the counts per interface. `--json` gives the same as data.
 */
export function writeTraceListing(suites: readonly LoadedSuite[], json: boolean, out: NodeJS.WritableStream): void {
  const summaries = suites.map((s) => ({ name: s.name, trace: s.trace ? traceSummary(s.trace, s.requirements) : null }));
  if (json) {
    out.write(`${JSON.stringify(summaries, null, 2)}\n`);
    return;
  }
  for (const { name, trace } of summaries) {
    if (!trace) {
      out.write(`${name}: no statement trace (suites/${name}/trace.yaml); \`specgate list --suite ${name}\` shows each requirement's clause\n`);
      continue;
    }
    out.write(`${name}: ${trace.document}\n${interfaceLines(trace)}`);
    for (const section of trace.sections) {
      out.write(`  ${section.section}\n`);
      for (const st of section.statements) {
        const what = st.status === 'judged' ? st.requirements.join(', ') : `${st.requirements.length ? `${st.requirements.join(', ')}: ` : ''}${st.reason ?? ''}`;
        const note = st.status === 'judged' && st.reason ? ` (${st.reason})` : '';
        out.write(`    ${st.status.padEnd(11)} "${st.quote}" — ${what}${note}\n`);
      }
    }
  }
}

/** A trace's counts, a line per interface. */
function interfaceLines(trace: TraceSummary): string {
  return trace.interfaces
    .filter((c) => c.statements > 0)
    .map((c) => {
      const pct = (n: number): string => `${Math.round((100 * n) / c.statements)} %`;
      const who = c.interface === SHARED ? 'statements of no one interface' : `interface ${c.interface}`;
      return `  ${who}: ${c.statements} statements: ${c.judged} judged (${pct(c.judged)}), ${c.excluded} excluded (${pct(c.excluded)}), ${c.informative} informative\n`;
    })
    .join('');
}
