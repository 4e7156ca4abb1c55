import type { Page } from 'playwright-core';
import { actionDone, isTimeout } from './action-done.js';
import { SpecgateError, type SpecgateErrorCode } from '../../errors.js';
import { PageBusy, PageDom } from './page-dom.js';
import { PageLocation } from './page-location.js';
import { describeStep, parseCapture, stepKind, urlWithQuery, type CaptureSource, type PageStep, type StepGuard } from './page-steps.js';

export interface PageStepOptions {
  /** Resolves `${...}` in a step's values against the variables so far. */
  resolve: (value: unknown, vars: Record<string, unknown>) => unknown;
  /** How long one step may take (ms): a selector to appear, a navigation to end. Default 15000. */
  stepTimeoutMs?: number;
  /** The case's timeout: no step starts after it aborts. */
  signal?: AbortSignal;
}

/** A step that failed: which one (0-based), and the error saying why. */
export class PageStepFailure extends SpecgateError {
  constructor(
    readonly stepIndex: number,
    readonly step: PageStep,
    code: SpecgateErrorCode,
    why: string,
    cause?: unknown,
  ) {
    super(code, `step ${stepIndex + 1} (${describeStep(step)}) failed: ${why}`, { step: stepIndex + 1 }, cause === undefined ? undefined : { cause });
  }
}

export const DEFAULT_STEP_TIMEOUT_MS = 15_000;
/** Playwright's words for a navigation it saw replaced by Chromium's error page of an earlier one. */
const CUT_BY_ERROR_PAGE = /is interrupted by another navigation to "chrome-error:/;
/** Chromium's own page for a navigation that failed. */
const ERROR_PAGE = /^chrome-error:/;

/** Why a step cannot go on, as the step's error code and words. */
class StepProblem extends Error {
  constructor(
    readonly code: SpecgateErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs page steps in order on `page`, with `vars` (the action's parameters and the case's
 * variables) in scope. Returns what the steps captured and set. The first step that fails
 * ends the run with a PageStepFailure naming it; the page is left as it was then (for a
 * screenshot). A step whose `when:` does not hold is passed over.
 */
export async function runPageSteps(page: Page, steps: readonly PageStep[], vars: Record<string, unknown>, opts: PageStepOptions): Promise<Record<string, unknown>> {
  const scope: Record<string, unknown> = { ...vars };
  const out: Record<string, unknown> = {};
  const location = new PageLocation(page);
  const runner = new StepRunner(page, location, opts.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS);
  try {
    for (const [i, step] of steps.entries()) {
      if (opts.signal?.aborted) throw new PageStepFailure(i, step, 'SG_CASE_TIMEOUT', 'the case timed out before this step');
      try {
        if (step.when && !(await runner.holds(opts.resolve(step.when, scope) as StepGuard))) continue;
        const values = await runner.run(step, (v) => opts.resolve(v, scope));
        Object.assign(scope, values);
        Object.assign(out, values);
      } catch (e) {
        if (e instanceof PageStepFailure) throw e;
        if (opts.signal?.aborted) throw new PageStepFailure(i, step, 'SG_CASE_TIMEOUT', 'the case timed out during this step', e);
        if (e instanceof StepProblem) throw new PageStepFailure(i, step, e.code, e.message);
        if (e instanceof SpecgateError) throw new PageStepFailure(i, step, e.code, e.message, e);
        throw new PageStepFailure(i, step, 'SG_TARGET_PROTOCOL', `${firstLine(e)} (at ${location.current()})`, e);
      }
    }
    return out;
  } finally {
    location.detach();
  }
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}

function regex(source: unknown, what: string): RegExp {
  try {
    return new RegExp(String(source));
  } catch (e) {
    throw new StepProblem('SG_CONFIG', `${what} ${JSON.stringify(source)} is not a valid regular expression (${firstLine(e)})`);
  }
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Runs one step kind at a time on one page; knows where the page is. Reads, fills and clicks go
 * through the page's PageDom where the page already shows what they need (plain CSS, an element
 * usable as it is), and through Playwright, which waits and says why not, everywhere else.
 */
class StepRunner {
  private readonly dom: Promise<PageDom | undefined>;
  /** When the step (or guard) under way runs out of time, in ms since the epoch. */
  private deadline = 0;

  constructor(
    private readonly page: Page,
    private readonly location: PageLocation,
    private readonly timeoutMs: number,
  ) {
    this.dom = PageDom.of(page);
  }

  async holds(guard: StepGuard): Promise<boolean> {
    this.deadline = Date.now() + this.timeoutMs;
    if (guard.url !== undefined && !regex(guard.url, 'when.url').test(this.location.current())) return false;
    if (guard.selector !== undefined && (await this.count(guard.selector)) === 0) return false;
    if (guard.absent !== undefined && (await this.count(guard.absent)) > 0) return false;
    return true;
  }

  async run(step: PageStep, resolve: (v: unknown) => unknown): Promise<Record<string, unknown>> {
    this.deadline = Date.now() + this.timeoutMs;
    if ('goto' in step) await this.goto(resolve(step.goto));
    else if ('match' in step) this.match(resolve(step.match));
    else if ('fill' in step) await this.fill(resolve(step.fill) as Record<string, unknown>);
    else if ('click' in step) await this.act(text(resolve(step.click)), 'click');
    else if ('check' in step) await this.act(text(resolve(step.check)), 'check');
    else if ('waitFor' in step) await this.waitFor(resolve(step.waitFor) as { url?: unknown; selector?: unknown; timeoutMs?: unknown });
    else if ('capture' in step) return this.capture(step.capture);
    else if ('set' in step) return resolve(step.set) as Record<string, unknown>;
    else throw new StepProblem('SG_CONFIG', `a page step needs one of goto, match, fill, click, check, waitFor, capture or set (got ${stepKind(step)})`);
    return {};
  }

  private async goto(target: unknown, again = true): Promise<void> {
    const url = typeof target === 'object' && target !== null ? urlWithQuery(text((target as { url?: unknown }).url), (target as { query?: unknown }).query) : text(target);
    if (!/^https?:\/\//.test(url)) throw new StepProblem('SG_CONFIG', `goto needs an absolute http(s) URL, got ${JSON.stringify(url)}`);
    let cut = false;
    try {
      await this.page.goto(url, { waitUntil: 'load', timeout: this.timeoutMs });
    } catch (e) {
      // A page an earlier action left at an address that did not answer gets Chromium's error page
      // for it a moment later; Playwright then reports this navigation cut short by that page,
      // while the navigation goes on: the settle below follows it to its end.
      cut = this.location.failed() === undefined && CUT_BY_ERROR_PAGE.test(firstLine(e));
      // The address answered with a redirect to one that does not (a loopback callback nobody
      // listens on): the browser went where it was sent, which is what a capture reads.
      if (!cut && !this.location.failedAfterRedirect()) {
        if (isTimeout(e)) throw new StepProblem('SG_TARGET_TIMEOUT', `${url} did not load within ${this.timeoutMs} ms`);
        throw new StepProblem('SG_TARGET_UNREACHABLE', `cannot open ${url}: ${this.location.failed() ?? firstLine(e)}`);
      }
    }
    await this.settle();
    if (!cut) return;
    const failed = this.location.failed();
    if (failed !== undefined && !this.location.failedAfterRedirect()) throw new StepProblem('SG_TARGET_UNREACHABLE', `cannot open ${url}: ${failed}`);
    // the error page did end the navigation after all: it is made once more
    if (failed === undefined && ERROR_PAGE.test(this.location.current()) && again) await this.goto(target, false);
  }

  private match(pattern: unknown): void {
    const current = this.location.current();
    if (!regex(pattern, 'match').test(current)) throw new StepProblem('SG_TARGET_PROTOCOL', `the browser is at ${current}, which does not match ${text(pattern)}`);
  }

  private async fill(fields: Record<string, unknown>): Promise<void> {
    for (const [selector, value] of Object.entries(fields)) {
      if (await this.fast((dom) => dom.fill(selector, text(value), this.deadline), this.deadline, () => this.unusable(selector))) continue;
      await this.onElement(selector, () => this.page.fill(selector, text(value), { timeout: this.timeoutMs }));
    }
  }

  /**
   * A click or a tick, then the navigation it started (a form post and its redirects), to its end.
   * Playwright waits for that navigation to be under way within the step's time; on a busy machine
   * a chain of redirects can outlast it after the click was made, and Playwright then reports a
   * timeout whose call log says the action was done. Such a click was made: `settle` follows the
   * navigation to its end instead. (Whether the page moved is no sign: a navigation an earlier
   * step started can still be announcing itself.) A click the page allows at once is made
   * through PageDom, which waits for its navigation in the same way.
   */
  private async act(selector: string, kind: 'click' | 'check'): Promise<void> {
    const options = { timeout: this.timeoutMs };
    const deadline = Date.now() + this.timeoutMs;
    const dom = kind === 'click' ? await this.fast(async (d) => d, deadline, () => this.unusable(selector)) : undefined;
    if (dom) {
      // a navigation the click starts can fail (a callback nobody answers): that ends the click too
      const before = this.location.failures();
      let clicking = true;
      const failed = (async () => {
        while (clicking && this.location.failures() === before) await this.location.changed();
      })();
      try {
        if (await this.fast((d) => d.click(selector, deadline, failed), deadline, () => this.unusable(selector))) {
          await this.settle();
          return;
        }
      } finally {
        clicking = false;
      }
    }
    await this.onElement(selector, () => (kind === 'click' ? this.page.click(selector, options) : this.page.check(selector, options)), (e) => actionDone(e, kind));
    await this.settle();
  }

  private async waitFor(spec: { url?: unknown; selector?: unknown; timeoutMs?: unknown }): Promise<void> {
    const timeout = typeof spec.timeoutMs === 'number' ? spec.timeoutMs : this.timeoutMs;
    const deadline = Date.now() + timeout;
    if (spec.url !== undefined) {
      const want = regex(spec.url, 'waitFor.url');
      // the address changes only with a navigation event of the main frame: each is looked at once
      while (!(want.test(this.location.current()) && !this.location.navigating())) {
        await this.nextNavigation(deadline, () => `the browser did not reach a URL matching ${text(spec.url)} within ${timeout} ms; it is at ${this.location.current()}`);
      }
      await this.settle();
    }
    if (spec.selector !== undefined) {
      const selector = text(spec.selector);
      const late = (): StepProblem => new StepProblem('SG_TARGET_TIMEOUT', `no element matching ${JSON.stringify(selector)} appeared within ${timeout} ms on ${this.location.current()}`);
      if (((await this.fast((dom) => dom.probe(selector, 'count', deadline), deadline, late))?.count ?? 0) > 0) return;
      try {
        await this.page.waitForSelector(selector, { state: 'attached', timeout: Math.max(1, deadline - Date.now()) });
      } catch (e) {
        if (isTimeout(e)) throw late();
        throw e;
      }
    }
  }

  private async capture(spec: Record<string, string>): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [name, source] of Object.entries(spec)) {
      const parsed = parseCapture(source);
      if (!parsed) throw new StepProblem('SG_CONFIG', `capture ${name}: ${JSON.stringify(source)} names nothing to read; use url, url:query.<name>, url:fragment.<name>, url:path, status, text:<selector>, value:<selector>, attr:<selector>@<attribute> or exists:<selector>`);
      out[name] = await this.read(parsed);
    }
    return out;
  }

  private async read(source: CaptureSource): Promise<unknown> {
    const current = this.location.current();
    switch (source.from) {
      case 'url':
        return current;
      case 'url-path':
        return parsedUrl(current)?.pathname ?? null;
      case 'url-query':
        return parsedUrl(current)?.searchParams.get(source.name) ?? null;
      case 'url-fragment':
        return new URLSearchParams(parsedUrl(current)?.hash.replace(/^#/, '') ?? '').get(source.name);
      case 'status':
        return this.location.status();
      default:
        break;
    }
    // the page of a failed navigation is Chromium's own: nothing on it is the target's
    if (this.location.failed() !== undefined) return source.from === 'exists' ? false : null;
    const fast = await this.fast((dom) => dom.probe(source.selector, source.from === 'exists' ? 'count' : source.from, this.deadline, source.from === 'attr' ? source.attribute : undefined), this.deadline, () => this.unread(source.selector));
    if (fast) {
      if (source.from === 'exists' || fast.count === 0) return source.from === 'exists' ? fast.count > 0 : null;
      return source.from === 'text' ? text(fast.value).trim() : (fast.value ?? null);
    }
    const none = (await this.count(source.selector)) === 0;
    if (source.from === 'exists') return !none;
    if (none) return null;
    const first = this.page.locator(source.selector).first();
    if (source.from === 'text') return (await first.innerText({ timeout: this.timeoutMs })).trim();
    if (source.from === 'value') return first.inputValue({ timeout: this.timeoutMs });
    if (source.from === 'attr') return first.getAttribute(source.attribute, { timeout: this.timeoutMs });
    return null;
  }

  private async count(selector: string): Promise<number> {
    const fast = await this.fast((dom) => dom.probe(selector, 'count', this.deadline), this.deadline, () => this.unread(selector));
    if (fast) return fast.count;
    try {
      return await this.page.locator(selector).count();
    } catch (e) {
      throw new StepProblem('SG_CONFIG', `${JSON.stringify(selector)} is not a selector the browser understands (${firstLine(e)})`);
    }
  }

  /**
   * Runs `call` with the page's PageDom (`undefined` without one); a page that does not answer by
   * `deadline` (its main thread busy) fails the step with the error `late` makes, as Playwright's
   * wait for that step would.
   */
  private async fast<T>(call: (dom: PageDom) => Promise<T>, deadline: number, late: () => StepProblem): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new PageBusy('its DevTools session')), Math.max(0, deadline - Date.now()))));
      const dom = await Promise.race([this.dom, expired]);
      clearTimeout(timer);
      return dom ? await call(dom) : undefined;
    } catch (e) {
      if (e instanceof PageBusy) throw late();
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  private unusable(selector: string): StepProblem {
    return new StepProblem('SG_TARGET_PROTOCOL', `no element matching ${JSON.stringify(selector)} could be used within ${this.timeoutMs} ms on ${this.location.current()}`);
  }

  private unread(selector: string): StepProblem {
    return new StepProblem('SG_TARGET_TIMEOUT', `the page did not answer a read of ${JSON.stringify(selector)} within ${this.timeoutMs} ms (at ${this.location.current()})`);
  }

  /** Runs an action on an element; a missing element is the page not being what the profile expects. */
  private async onElement(selector: string, act: () => Promise<void>, made: (e: unknown) => boolean = () => false): Promise<void> {
    try {
      await act();
    } catch (e) {
      if (isTimeout(e) && made(e)) return;
      if (isTimeout(e)) throw this.unusable(selector);
      throw e;
    }
  }

  /**
   * Waits until the main frame has no navigation under way, then for the document's load, and
   * again while that wait saw another navigation begin: a form post answered by redirects ends
   * where they end, also when the last address refused the connection. Nothing is waited for by
   * the clock: a navigation a click starts is already under way when the click returns
   * (Playwright waits for the navigations an action starts to commit), and every later one is
   * an event.
   */
  private async settle(): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    const late = (): string => `the page did not finish loading within ${this.timeoutMs} ms (at ${this.location.current()})`;
    for (;;) {
      while (this.location.navigating()) await this.nextNavigation(deadline, late);
      const seen = this.location.version();
      await this.page.waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
      if (!this.location.navigating() && this.location.version() === seen) return;
      if (Date.now() > deadline) throw new StepProblem('SG_TARGET_TIMEOUT', late());
    }
  }

  /** Waits for the main frame's next navigation event; past `deadline`, a timeout saying `why`. */
  private async nextNavigation(deadline: number, why: () => string): Promise<void> {
    const left = deadline - Date.now();
    if (left <= 0) throw new StepProblem('SG_TARGET_TIMEOUT', why());
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<boolean>((r) => (timer = setTimeout(() => r(true), left)));
    const timedOut = await Promise.race([this.location.changed().then(() => false), expired]);
    clearTimeout(timer);
    if (timedOut) throw new StepProblem('SG_TARGET_TIMEOUT', why());
  }
}

function parsedUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
