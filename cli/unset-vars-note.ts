import type { EngineEvent } from '../src/engine/events.js';
import type { RunResult, SuiteResult } from '../src/engine/model.js';
import { loadSuites, type LoadedSuites } from '../src/engine/load-suites.js';
import type { SuiteModule } from '../src/engine/suite-module.js';
import type { TargetChoice } from '../src/engine/target-setup.js';
import type { Reporter } from '../src/reporting/index.js';
import { declaredVars, isSet, someOf } from '../src/targets/declared-vars.js';

/**
 * What the run left out because the target profile does not set an optional variable: one line
 * per variable, with the cases it skipped. A profile that silently tests less than it could is
 * how a gate drifts, so the summary says what setting the variable would add.
 */
export function unsetOptionalNotes(modules: SuiteModule[], result: RunResult, targets: Record<string, TargetChoice>, caseFiles: readonly string[] = [], fromRun?: LoadedSuites): string[] {
  const notes: string[] = [];
  // a suite that skipped nothing left nothing out: its variables need not be read
  const external = result.suites.filter((s) => targets[s.name]?.section && !targets[s.name]?.recording && s.cases.some((c) => c.outcome === 'skipped'));
  if (!external.length) return notes;
  // the run's own suites when given (run's onLoaded), else loaded here
  const { suites } = fromRun ?? loadSuites(modules, external.map((s) => s.name), caseFiles);
  for (const ran of external) {
    const loaded = suites.find((s) => s.name === ran.name);
    const vars = targets[ran.name]?.section?.vars ?? {};
    if (!loaded) continue;
    // variables that skip the same cases (an application and its callback URL) share one line
    const bySkipped = new Map<string, { names: string[]; skipped: string[] }>();
    for (const v of declaredVars(loaded)) {
      if (v.required || isSet(vars[v.name])) continue;
      const skipped = skippedBy(ran, v.skips);
      if (!skipped.length) continue;
      const group = bySkipped.get(skipped.join('\n')) ?? { names: [], skipped };
      group.names.push(v.name);
      bySkipped.set(skipped.join('\n'), group);
    }
    for (const { names, skipped } of bySkipped.values()) {
      const one = names.length === 1;
      notes.push(
        `optional variable${one ? '' : 's'} ${names.join(', ')} ${one ? 'is' : 'are'} not set in suites.${ran.name}.vars; ${skipped.length} case${skipped.length === 1 ? '' : 's'} skipped without ${one ? 'it' : 'them'}: ${someOf(skipped)} (\`specgate list --suite ${ran.name} --vars\` says what ${one ? 'it holds' : 'they hold'})`,
      );
    }
  }
  return notes;
}

function skippedBy(ran: SuiteResult, skips: string[]): string[] {
  const wanted = new Set(skips);
  return ran.cases.filter((c) => c.outcome === 'skipped' && wanted.has(c.id)).map((c) => c.id);
}

/**
 * The console reporter with the notes shown just before its summary, as warnings: they go
 * through the reporter's own printing, so a progress line on a terminal is cleared first.
 */
export function withUnsetNotes(reporter: Reporter, notes: (result: RunResult) => string[]): Reporter {
  return {
    onEvent(e: EngineEvent): void {
      if (e.type === 'run-finish') {
        let lines: string[] = [];
        try {
          lines = notes(e.result);
        } catch {
          // the suites loaded for the run itself; a note is not worth failing the report over
        }
        for (const message of lines) reporter.onEvent({ type: 'log', level: 'warn', message });
      }
      reporter.onEvent(e);
    },
    finish: () => reporter.finish(),
  };
}
