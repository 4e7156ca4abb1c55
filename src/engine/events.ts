import type { CaseDef, CaseResult, Exchange, Failure, Requirement, RunResult, SuiteResult } from './model.js';

/**
 * The typed event stream the engine emits. Reporters consume only these
 * (they never reach into the engine), and every payload is already redacted.
 */
export type EngineEvent =
  | { type: 'run-start'; startedAt: string; seed: number; suites: { name: string; cases: number; target: string }[] }
  | { type: 'suite-start'; suite: string; target: string; requirements: Requirement[]; cases: Pick<CaseDef, 'id' | 'requirements'>[] }
  | { type: 'case-start'; suite: string; caseId: string }
  | { type: 'exchange'; suite: string; caseId: string; exchange: Exchange }
  | { type: 'failure'; suite: string; caseId: string; failure: Failure }
  | { type: 'case-finish'; suite: string; result: CaseResult }
  | { type: 'suite-finish'; suite: string; result: SuiteResult }
  | { type: 'run-finish'; result: RunResult }
  | { type: 'log'; level: 'info' | 'warn'; message: string };

export type EventType = EngineEvent['type'];

export interface EventSink {
  (event: EngineEvent): void;
}

/** Fan-out to several sinks; a throwing sink is reported once and then ignored, never breaking the run. */
export class EventBus {
  private readonly sinks: EventSink[] = [];
  private readonly broken = new Set<EventSink>();

  subscribe(sink: EventSink): void {
    this.sinks.push(sink);
  }

  /** Someone listens: events made per case are built only then (a run without reporters builds none). */
  get listening(): boolean {
    return this.sinks.length > 0;
  }

  emit(event: EngineEvent): void {
    for (const sink of this.sinks) {
      if (this.broken.has(sink)) continue;
      try {
        sink(event);
      } catch (e) {
        this.broken.add(sink);
        process.stderr.write(`specgate: a reporter failed and was switched off: ${e instanceof Error ? e.message : String(e)}\n`);
      }
    }
  }
}
