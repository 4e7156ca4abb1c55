import type { SuiteListing } from './suite-listing.js';

/**
 * Whether a value read back from the cache folder (list-cache.ts) is a listing as
 * suite-listing.ts prints it: every field of the type it declares, and no text holding a control
 * character other than a newline or a tab (a kept file is printed as it is, and such characters
 * could move the cursor, clear the screen or rewrite the title of the terminal that shows it).
 * Anything else is not used: the suites are loaded instead.
 */
export function isListing(x: unknown): x is SuiteListing {
  if (!isRecord(x)) return false;
  return isText(x['name']) && isText(x['counts'])
    && optional(x['title'], isText) && optional(x['sidesText'], isText) && optional(x['partsText'], isText) && optional(x['selection'], isText)
    && optional(x['sides'], (s) => isRecordOf(s, (v) => isRecord(v) && isText(v['description'])))
    && optional(x['parts'], (p) => isRecordOf(p, (v) => isRecord(v) && isText(v['description']) && isTexts(v['requirements'])))
    && isArrayOf(x['requirements'], (r) => isRecord(r) && isText(r['id']) && isText(r['level']) && isText(r['source']) && isText(r['text'])
      && optional(r['excluded'], isText) && optional(r['side'], isText))
    && isArrayOf(x['cases'], (c) => isRecord(c) && isText(c['id']) && isTexts(c['requirements']) && isText(c['file'])
      && optional(c['description'], isText) && optional(c['tags'], isTexts))
    && isArrayOf(x['checks'], (c) => isRecord(c) && isText(c['name']) && isText(c['description'])
      && (c['judges'] === 'case' || isTexts(c['judges'])) && isTexts(c['sets']))
    && isTexts(x['gaps']);
}

// C0 controls but tab and newline, DEL and the C1 controls (0x9b starts a terminal sequence as ESC [ does)
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function isText(x: unknown): x is string {
  return typeof x === 'string' && !CONTROL.test(x);
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isArrayOf(x: unknown, each: (v: unknown) => boolean): boolean {
  return Array.isArray(x) && x.every(each);
}

function isTexts(x: unknown): x is string[] {
  return isArrayOf(x, isText);
}

function isRecordOf(x: unknown, each: (v: unknown) => boolean): boolean {
  return isRecord(x) && Object.entries(x).every(([k, v]) => isText(k) && each(v));
}

function optional(x: unknown, is: (v: unknown) => boolean): boolean {
  return x === undefined || is(x);
}
