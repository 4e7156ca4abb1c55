import { SpecgateError } from '../errors.js';
import { reportScreenshotDir } from '../targets/browser/failure-screenshot.js';
import { createHookClock } from '../targets/clock-hook.js';
import { openDatabasePort, passwordOf } from '../targets/database/open-database.js';
import type { DatabaseSection } from '../targets/database/types.js';
import { encodeJson } from '../targets/request-body.js';
import type { Recording } from '../targets/har/recording.js';
import type { TargetSection } from '../targets/target-section.js';
import type { HttpClient, SuiteTarget, UserAgentDriver } from '../targets/types.js';
import { BrowserAgent } from './agents/browser-agent.js';
import { InteractiveAgent } from './agents/interactive-agent.js';
import { ScriptedAgent } from './agents/scripted-agent.js';
import { RealClock, VirtualClock } from './clock.js';
import { resolveDeep, resolveVariables } from './expressions.js';
import type { HttpRequestSpec } from './model.js';
import { startWorkerReference, workersAvailable } from './reference-worker/worker-reference.js';
import type { RunningReference, SuiteModule, WorkerReferenceEntry } from './suite-module.js';
import type { TimeMode } from './runtime/time.js';

/** What one suite runs against: an external target's section, or the embedded reference. */
export interface TargetChoice {
  /** From the profile and/or suite flags; undefined means the embedded reference. */
  section: TargetSection | undefined;
  /** Label for reports: the profile's name or the flag's value. */
  label: string;
  /** Secret values known from the profile (every `${env:...}` value). */
  secrets: string[];
  /** Variables laid over the embedded reference's own (flags with `layer: 'reference'`). */
  referenceVars?: Record<string, unknown>;
  /** Recorded traffic to judge instead of a target to drive (`--target har:<file>`). */
  recording?: Recording;
}

export interface PreparedTarget {
  target: SuiteTarget;
  timeMode: TimeMode;
}

/**
 * Starts or describes the target one suite runs against: the embedded reference on a virtual
 * clock, or an external one from a profile section, with its clock hook, real time (when slow
 * runs are allowed) or no way to let time pass.
 */
export async function prepareTarget(module: SuiteModule, choice: TargetChoice, opts: { includeSlow: boolean; http: () => HttpClient; reportDir?: string }): Promise<PreparedTarget> {
  if (!choice.section) {
    if (!module.reference)
      throw new SpecgateError('SG_CONFIG', `suite ${module.name} has no embedded reference implementation: point it at a target with --target <profile.yaml>`);
    const clock = new VirtualClock();
    // a reference that can answers from a worker thread, on another core than the engine's
    const entry = module.reference.worker;
    const running = entry && workersAvailable() ? await startInWorker(entry, clock) : await module.reference.start({ clock });
    const target: SuiteTarget = {
      kind: 'reference',
      description: running.description,
      vars: { ...running.vars, ...(choice.referenceVars ?? {}) },
      secrets: [],
      headerNames: {},
      pathNames: {},
      clock,
      stop: () => running.stop(),
    };
    if (running.exec) target.exec = running.exec;
    if (running.agent) target.agent = running.agent;
    if (running.database) target.database = running.database;
    if (running.documents) target.documents = running.documents;
    return { target, timeMode: 'virtual' };
  }
  const s = choice.section;
  const vars = resolveVariables(s.vars ?? {});
  const secrets = [...new Set([...choice.secrets, ...(s.secrets ?? [])])];
  const target: SuiteTarget = {
    kind: 'profile',
    description: choice.label,
    vars,
    secrets,
    headerNames: s.headerNames ?? {},
    pathNames: s.pathNames ?? {},
    stop: async () => {},
  };
  if (s.fieldNames && Object.keys(s.fieldNames).length) target.fieldNames = s.fieldNames;
  if (s.exec) target.exec = s.exec;
  if (s.database) {
    // a URL or a command line may name the target's vars (`${db_host}`); resolved once, here
    let section: DatabaseSection;
    if ('exec' in s.database) {
      section = { exec: { ...s.database.exec, argv: s.database.exec.argv.map((a) => String(resolveDeep(a, { vars }))) } };
    } else {
      const url = String(resolveDeep(s.database.url, { vars }));
      section = { ...s.database, url };
      const password = passwordOf(url);
      if (password) secrets.push(password);
    }
    const port = openDatabasePort(section);
    const opened = port.kind === 'sql' ? port.database : port.documents;
    if (port.kind === 'sql') target.database = port.database;
    else target.documents = port.documents;
    target.stop = () => opened.close();
  }
  const agent = makeAgent(s, vars, module.name, opts.reportDir);
  if (agent) {
    target.agent = agent;
    // a browser agent's Chromium lives as long as the target: stopping the target closes it
    if (agent instanceof BrowserAgent) {
      const stopOthers = target.stop;
      target.stop = async () => {
        await Promise.all([agent.close(), stopOthers()]);
      };
    }
  }
  let timeMode: TimeMode = 'none';
  if (s.clock) {
    const hook = s.clock.advance;
    const http = opts.http();
    target.clock = createHookClock(async (ms, signal) => {
      const spec = resolveDeep(hook, { vars: { ...vars, ms, seconds: ms / 1000 } }) as HttpRequestSpec;
      const body = spec.json !== undefined ? encodeJson(spec.json) : spec.raw;
      const res = await http.send({
        method: spec.method ?? 'POST',
        url: spec.url ?? "",
        headers: { ...(spec.headers ?? {}), ...(spec.json !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body === undefined ? {} : { body }),
        ...(signal ? { signal } : {}),
      });
      if (res.status >= 300)
        throw new SpecgateError(
          'SG_TARGET_PROTOCOL',
          `the clock-control hook failed while advancing ${ms} ms: the hook answered HTTP ${res.status}; check clock.advance in the target profile`,
          { ms, status: res.status },
        );
    });
    timeMode = 'hook';
  } else if (opts.includeSlow) {
    target.clock = new RealClock();
    timeMode = 'real';
  }
  return { target, timeMode };
}

/** The reference of `entry` started in a worker thread, with what the run's thread adds around it. */
async function startInWorker(entry: WorkerReferenceEntry, clock: VirtualClock): Promise<RunningReference> {
  const running = await startWorkerReference(entry, { clock });
  return entry.around ? entry.around(running) : running;
}

/**
 * The profile's user agent; a browser one sees the target's vars and saves failure screenshots
 * beside the reports, under `<reportDir>/screenshots/<suite>/`.
 */
function makeAgent(s: TargetSection, vars: Record<string, unknown>, suite: string, reportDir: string | undefined): UserAgentDriver | undefined {
  const a = s.agent;
  if (!a) return undefined;
  if (a.mode === 'scripted') return new ScriptedAgent(a.actions);
  if (a.mode === 'interactive') return new InteractiveAgent();
  return new BrowserAgent({
    actions: a.actions,
    vars,
    ...(a.chromium !== undefined ? { chromium: a.chromium } : {}),
    // a page step waits for the target no longer than a request does, unless the agent says otherwise
    ...(a.stepTimeoutMs !== undefined || s.http?.timeoutMs !== undefined ? { stepTimeoutMs: a.stepTimeoutMs ?? s.http?.timeoutMs } : {}),
    suite,
    ...(reportDir !== undefined ? { screenshotDir: reportScreenshotDir(reportDir) } : {}),
  });
}
