/**
 * What a page step can learn or do with one plain script in the page, without Playwright's
 * injected selector engine (which every new document would have to load first) and without its
 * wait for an element to become usable. The script answers only where the page already shows
 * what the step needs; anything else it leaves to Playwright, which waits and says why not.
 */

/**
 * Selector syntax only Playwright understands: an engine prefix (`text=`, `css=`, `xpath=`,
 * `internal:role=`), a chain (`>>`), XPath (`//`, `..`), quoted text, and its own
 * pseudo-classes. Most of it a browser refuses anyway; `:scope` it reads differently.
 */
const PLAYWRIGHT_ONLY =
  /^\s*(?:\*?[a-z_][\w-]*(?::[\w-]+)?\s*=|\/\/|\.\.|["'`])|>>|:(?:has-text|text|text-is|text-matches|visible|nth-match|light|right-of|left-of|above|below|near|scope|internal)\b|\binternal:/i;

/**
 * True when `selector` may be plain CSS: no Playwright-only syntax. Whether the browser accepts
 * it is the page's to say: the probe leaves a selector `querySelectorAll` refuses to Playwright.
 */
export function mayBePlainCss(selector: string): boolean {
  return selector.trim() !== '' && !PLAYWRIGHT_ONLY.test(selector);
}

/** What the probe does with the first element matching the selector. */
export type ProbeOp = 'count' | 'text' | 'value' | 'attr' | 'fill' | 'click';

/** The probe's answer: how many elements match, and what the operation read or where to click. */
export interface ProbeAnswer {
  count: number;
  value?: unknown;
}

/**
 * Where the probe keeps its click guard: a global of the probe's own script world (see
 * page-dom.ts), which the page's scripts do not share.
 */
const GUARD = 'specgateClickGuard';

/**
 * The probe, run in the page as `(selector, op, arg) => ProbeAnswer | null`. Null means "ask
 * Playwright": the browser refused the selector; the page has open shadow roots (Playwright's
 * CSS looks inside them, `querySelectorAll` does not); the first match is not what the read
 * needs (`text` of an element that is no HTMLElement, `value` of one that is no form field); or
 * an action would have to wait (the element is hidden, disabled, read-only, moving, or another
 * element covers its centre). An action's checks are Playwright's own: visible (a box, not
 * `visibility: hidden`), enabled (no `disabled`, no `aria-disabled="true"`), editable, stable
 * (no animation running), and receiving the click at the point it is made. For a click it also
 * leaves a guard on the window (capture phase, for GUARD_MS at most) that cancels the press,
 * release and click when they reach another element: the page may move between the probe and
 * the press. CLICK_MISSED_SCRIPT reads and removes it.
 */
export const PROBE_SCRIPT = `(selector, op, arg) => {
  const GUARD = ${JSON.stringify(GUARD)};
  const GUARDED = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'];
  const GUARD_MS = 2000;
  let all;
  try { all = document.querySelectorAll(selector); } catch { return null; }
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_ELEMENT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.shadowRoot) return null;
  if (op === 'count') return { count: all.length };
  const el = all[0];
  if (!el) return { count: 0 };
  const answer = (value) => ({ count: all.length, value });
  if (op === 'attr') return answer(el.getAttribute(arg));
  if (op === 'text') return el instanceof HTMLElement ? answer(el.innerText) : null;
  if (op === 'value') return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement ? answer(el.value) : null;
  if (!el.isConnected || el.matches(':disabled') || el.closest('[aria-disabled="true"]')) return null;
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility()) return null;
  if (getComputedStyle(el).visibility !== 'visible') return null;
  let box = el.getBoundingClientRect();
  if (!(box.width > 0 && box.height > 0)) return null;
  if (op === 'fill') {
    const typed = el instanceof HTMLInputElement ? ['text', 'password', 'email', 'search', 'tel', 'url'].includes(el.type) : el instanceof HTMLTextAreaElement;
    if (!typed || el.readOnly) return null;
    el.focus();
    el.select();
    return document.activeElement === el ? answer(true) : null;
  }
  if (op === 'click') {
    if (document.getAnimations().some((a) => a.playState === 'running')) return null;
    if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      box = el.getBoundingClientRect();
    }
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (!(x >= 0 && y >= 0 && x < innerWidth && y < innerHeight)) return null;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) return null;
    globalThis[GUARD]?.off();
    const guard = { missed: false };
    const check = (e) => {
      const t = e.target;
      if (!(t instanceof Node && (t === el || el.contains(t)))) {
        e.preventDefault();
        e.stopImmediatePropagation();
        guard.missed = true;
      }
      if (e.type === 'click') guard.off();
    };
    const timer = setTimeout(() => guard.off(), GUARD_MS);
    guard.off = () => {
      clearTimeout(timer);
      for (const type of GUARDED) removeEventListener(type, check, true);
    };
    for (const type of GUARDED) addEventListener(type, check, true);
    globalThis[GUARD] = guard;
    return answer({ x, y });
  }
  return null;
}`;

/**
 * Run in the page after a click's release: true when the probe's guard cancelled an event of
 * it (the press, release or click reached another element than the one probed); the guard is
 * removed either way.
 */
export const CLICK_MISSED_SCRIPT = `(() => {
  const guard = globalThis[${JSON.stringify(GUARD)}];
  if (!guard) return false;
  guard.off();
  delete globalThis[${JSON.stringify(GUARD)}];
  return guard.missed;
})()`;
