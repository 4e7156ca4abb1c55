import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SpecgateError } from '../../errors.js';
import { ScreenshotNames, defaultScreenshotDir, saveFailureScreenshot } from '../../targets/browser/failure-screenshot.js';
import { CHROMIUM_HINT, CHROMIUM_VAR, findChromium, requireChromium } from '../../targets/browser/find-chromium.js';
import { launchChromium } from '../../targets/browser/launch-browser.js';
import type { PageStep } from '../../targets/browser/page-steps.js';
import { PageStepFailure, runPageSteps } from '../../targets/browser/run-page-steps.js';
import type { StopSource } from '../../targets/stop-source.js';
import type { UserAgentDriver } from '../../targets/types.js';
import { resolveDeep } from '../expressions.js';
import { CasePages } from './case-pages.js';
import { closeSoon } from './context-pool.js';

export interface BrowserAgentOptions {
  /** Action name -> the page steps that perform it. */
  actions: Record<string, PageStep[]>;
  /** The Chromium executable the profile names; else as everywhere (find-chromium.ts): SPECGATE_CHROMIUM, Debian's headless shell, its browser, PATH. */
  chromium?: string;
  /** The target's variables: in scope of every action (a case's own come with forCase). */
  vars?: Record<string, unknown>;
  /**
   * Where failure screenshots go: the run's `<report folder>/screenshots` (see
   * reportScreenshotDir); the OS temp folder's specgate-screenshots when not given.
   */
  screenshotDir?: string;
  /** The suite whose cases the agent serves: its screenshots get a folder of that name. */
  suite?: string;
  /** How long one page step may take (ms). */
  stepTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * What a case gives the agent: its ID (for screenshot names), its variables, and when it stops
 * (its actions share one context and page until then).
 */
export interface AgentCaseScope {
  caseId: string;
  vars: Record<string, unknown>;
  stop?: StopSource;
  /**
   * Which of the case's side-by-side runs the actions belong to (property runs of one case):
   * each lane has a context and page of its own, as another person would, and signs in on its
   * own. Without it the case's actions share one.
   */
  lane?: number;
}

/**
 * A user agent that performs each action in headless Chromium by running the profile's page
 * steps (open the authorization page, fill in the sign-in form, press Authorize, read the code
 * from the URL the browser was sent to). One browser serves the whole run, started at the
 * first action: a launch and its close cost about twice what a fresh context does. Each case
 * (each lane of a case, see AgentCaseScope.lane) gets a context of its own, and its actions one
 * page in it (case-pages.ts): no cookie passes from one case to another, while a case signs in
 * once, as a person would. A context a case has finished with is wiped and lent to a later case
 * (context-pool.ts). An action outside a case gets a context of its own. The action's result is
 * its parameters plus everything its steps captured or set.
 */
export class BrowserAgent implements UserAgentDriver {
  readonly kind = 'browser';
  private launching: Promise<Browser> | undefined;
  private closed = false;
  private readonly open = new Set<BrowserContext>();
  private readonly cases = new CasePages();
  private readonly shots: ScreenshotNames;

  constructor(private readonly opts: BrowserAgentOptions) {
    this.shots = new ScreenshotNames(opts.screenshotDir ?? defaultScreenshotDir());
  }

  /** The action names the profile scripts. */
  get actionNames(): string[] {
    return Object.keys(this.opts.actions);
  }

  perform(action: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return this.act(action, params, signal);
  }

  /** The same agent seen from one case: its variables in scope, its ID in screenshot names. */
  forCase(scope: AgentCaseScope): UserAgentDriver {
    return { kind: this.kind, perform: (action, params, signal) => this.act(action, params, signal, scope) };
  }

  /** Closes every context still open and the browser; the agent performs nothing afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...[...this.open].map((c) => closeSoon(c)), this.cases.closeAll()]);
    const launching = this.launching;
    this.launching = undefined;
    if (launching) await launching.then((b) => b.close()).catch(() => undefined);
  }

  private async act(action: string, params: Record<string, unknown>, signal: AbortSignal | undefined, scope?: AgentCaseScope): Promise<Record<string, unknown>> {
    const steps = this.opts.actions[action];
    if (!steps) {
      const known = this.actionNames.map((a) => JSON.stringify(a)).join(', ') || 'none';
      throw new SpecgateError('SG_CONFIG', `the target profile's browser user agent has no "${action}" action (it has ${known}); add it under agent.actions as a list of page steps`, { action });
    }
    if (this.closed) throw new SpecgateError('SG_INTERNAL', `the browser user agent was asked to "${action}" after the target stopped`);
    if (signal?.aborted || scope?.stop?.stopped) throw new SpecgateError('SG_CASE_TIMEOUT', `the case timed out before the "${action}" action`);
    // The case's timeout ends the action at once, whatever Playwright is still waiting for: a call
    // under way when the context is closed under it has been seen to wait far past the abort.
    let onAbort = (): void => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new SpecgateError('SG_CASE_TIMEOUT', `the case timed out during the browser's "${action}" action`));
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const run = (page: Page): Promise<Record<string, unknown>> => this.steps(page, action, steps, params, signal, scope);
    const work = scope?.stop ? this.cases.withPage(scope.stop, scope.lane, () => this.browser(), run) : this.alone(run);
    // whichever loses the race is settled quietly
    work.catch(() => undefined);
    aborted.catch(() => undefined);
    try {
      return await Promise.race([work, aborted]);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Runs an action outside any case in a context of its own, closed when it ends. */
  private async alone<T>(use: (page: Page) => Promise<T>): Promise<T> {
    const context = await (await this.browser()).newContext();
    this.open.add(context);
    try {
      return await use(await context.newPage());
    } finally {
      this.open.delete(context);
      await closeSoon(context);
    }
  }

  private async steps(page: Page, action: string, steps: PageStep[], params: Record<string, unknown>, signal: AbortSignal | undefined, scope: AgentCaseScope | undefined): Promise<Record<string, unknown>> {
    const vars = { ...(this.opts.vars ?? {}), ...(scope?.vars ?? {}), ...params };
    try {
      const found = await runPageSteps(page, steps, vars, {
        resolve: (v, in_) => resolveDeep(v, { vars: in_, env: this.opts.env ?? process.env }),
        ...(this.opts.stepTimeoutMs !== undefined ? { stepTimeoutMs: this.opts.stepTimeoutMs } : {}),
        ...(signal ? { signal } : {}),
      });
      return { ...params, ...found };
    } catch (e) {
      if (signal?.aborted) throw new SpecgateError('SG_CASE_TIMEOUT', `the case timed out during the browser's "${action}" action`, undefined, { cause: e });
      const step = e instanceof PageStepFailure ? e.stepIndex + 1 : undefined;
      const file = this.shots.next({ ...(this.opts.suite !== undefined ? { suite: this.opts.suite } : {}), ...(scope ? { caseId: scope.caseId } : {}), action, ...(step !== undefined ? { step } : {}) });
      const shot = await saveFailureScreenshot(page, file);
      const where = shot ? `; screenshot of the page: ${shot}` : '';
      const err = e instanceof SpecgateError ? e : new SpecgateError('SG_TARGET_PROTOCOL', e instanceof Error ? e.message : String(e));
      throw new SpecgateError(err.code, `the browser user agent could not "${action}"${scope ? ` in case ${scope.caseId}` : ''}: ${err.message}${where}`, { ...(err.detail ?? {}), action, ...(shot ? { screenshot: shot } : {}) }, { cause: e });
    }
  }

  /**
   * The Chromium to start: the profile's `chromium:` (which must then be one: a mistyped path is
   * not silently replaced by another browser), else the usual places. None: an SG_CONFIG error
   * that says how to get one.
   */
  private executable(): string {
    const named = this.opts.chromium;
    if (named === undefined) return requireChromium(this.opts.env ?? process.env);
    if (findChromium({ [CHROMIUM_VAR]: named }) === undefined)
      throw new SpecgateError('SG_CONFIG', `agent.chromium in the target profile names ${named}, which is not an executable file; ${CHROMIUM_HINT}`, { chromium: named });
    return named;
  }

  /** The run's browser, started on first use; started again if it went away (a crash). */
  private browser(): Promise<Browser> {
    if (!this.launching) {
      const executable = this.executable();
      const launching = launchChromium(executable).then((b) => {
        b.on('disconnected', () => {
          if (this.launching === launching) this.launching = undefined;
        });
        return b;
      });
      launching.catch(() => {
        if (this.launching === launching) this.launching = undefined;
      });
      this.launching = launching;
    }
    return this.launching;
  }
}
