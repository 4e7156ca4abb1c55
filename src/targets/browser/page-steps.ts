/**
 * The declarative page steps a browser user agent runs for one action (a target profile's
 * `agent: { mode: browser, actions: { <action>: [steps] } }`). Values may hold `${...}`
 * expressions over the action's parameters, the case's variables and what earlier steps
 * captured; they are resolved just before their step runs.
 */

/** A condition on the page as it is now: every condition given must hold for the step to run. */
export interface StepGuard {
  /** A regular expression the current URL must match. */
  url?: string;
  /** A CSS selector that must match an element of the current page. */
  selector?: string;
  /** A CSS selector that must match no element of the current page. */
  absent?: string;
}

/** Where to go: a URL, or a URL and query parameters to add to it (null values are left out). */
export type GotoTarget = string | { url: string; query?: unknown };

interface StepBase {
  /** Runs the step only when the page is as described; otherwise it is passed over. */
  when?: StepGuard;
}

export type PageStep = StepBase &
  (
    | { goto: GotoTarget }
    | { match: string }
    | { fill: Record<string, unknown> }
    | { click: string }
    | { check: string }
    | { waitFor: { url?: string; selector?: string; timeoutMs?: number } }
    | { capture: Record<string, string> }
    | { set: Record<string, unknown> }
  );

/** The names of the step kinds, in the order a step is recognised. */
export const PAGE_STEP_KINDS = ['goto', 'match', 'fill', 'click', 'check', 'waitFor', 'capture', 'set'] as const;
export type PageStepKind = (typeof PAGE_STEP_KINDS)[number];

/** Which kind a step is (the profile schema lets exactly one kind key through). */
export function stepKind(step: PageStep): PageStepKind {
  const kind = PAGE_STEP_KINDS.find((k) => k in step);
  // the schema guarantees one; an object built in code without one is read as an empty capture
  return kind ?? 'capture';
}

/** A short description of a step for messages: `click "#approve button"`. */
export function describeStep(step: PageStep): string {
  const kind = stepKind(step);
  const value = (step as unknown as Record<string, unknown>)[kind];
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value ?? null);
  return `${kind} ${text.length > 120 ? `${text.slice(0, 117)}...` : text}`;
}

/**
 * What a `capture:` entry reads:
 * - `url`: the current URL (where the browser was sent, even when that address did not answer);
 * - `url:query.<name>` / `url:fragment.<name>`: one parameter of it (null when absent);
 * - `url:path`: its path;
 * - `status`: the HTTP status of the current document (null when it did not answer);
 * - `text:<selector>`: the visible text of the first element matching (null when none does);
 * - `value:<selector>`: the value of the first form field matching (null when none does);
 * - `attr:<selector>@<attribute>`: an attribute of the first element matching (null when none);
 * - `exists:<selector>`: whether any element matches (true or false).
 */
export type CaptureSource =
  | { from: 'url' }
  | { from: 'url-query' | 'url-fragment'; name: string }
  | { from: 'url-path' }
  | { from: 'status' }
  | { from: 'text' | 'value' | 'exists'; selector: string }
  | { from: 'attr'; selector: string; attribute: string };

/** The pattern the profile schema checks capture sources against (kept equal to parseCapture). */
export const CAPTURE_SOURCE_PATTERN = '^(url|url:path|status|url:(query|fragment)\\.[^\\s]+|(text|value|exists):.+|attr:.+@[^@\\s]+)$';

/** The capture source a `capture:` value names, or undefined when it names none. */
export function parseCapture(spec: string): CaptureSource | undefined {
  if (spec === 'url') return { from: 'url' };
  if (spec === 'url:path') return { from: 'url-path' };
  if (spec === 'status') return { from: 'status' };
  const param = /^url:(query|fragment)\.(\S+)$/.exec(spec);
  if (param) return { from: param[1] === 'query' ? 'url-query' : 'url-fragment', name: param[2] ?? '' };
  const element = /^(text|value|exists):(.+)$/s.exec(spec);
  if (element) return { from: element[1] as 'text' | 'value' | 'exists', selector: element[2] ?? '' };
  const attr = /^attr:(.+)@([^@\s]+)$/s.exec(spec);
  if (attr) return { from: 'attr', selector: attr[1] ?? '', attribute: attr[2] ?? '' };
  return undefined;
}

/** `url` with `query` added (an object: null and undefined values are left out, others as text). */
export function urlWithQuery(url: string, query: unknown): string {
  if (query === undefined || query === null) return url;
  const u = new URL(url);
  if (typeof query === 'string') {
    for (const [k, v] of new URLSearchParams(query)) u.searchParams.append(k, v);
    return u.toString();
  }
  if (typeof query !== 'object') return url;
  for (const [k, v] of Object.entries(query)) {
    if (v === null || v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) u.searchParams.append(k, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  return u.toString();
}
