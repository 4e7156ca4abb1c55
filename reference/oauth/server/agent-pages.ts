/**
 * What the reference user agent reads of a platform page: the page's name and outcome (the
 * `data-page` and `data-outcome` markers the reference's HTML carries), where it redirects, and
 * its forms with their hidden fields. Every URL on a page is read the way a browser reads it:
 * relative to the page's own address.
 */

export interface Page {
  /** The address the page was fetched from. */
  url: string;
  status: number;
  /** Where the page redirects, resolved against {@link url} (null: no redirect). */
  location: string | null;
  body: string;
  name: string | null;
  outcome: string | null;
}

export interface Form {
  /** Where the form posts, resolved against the page's address. */
  action: string;
  fields: Record<string, string>;
}

const unescape = (s: string): string => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The page of `body` fetched from `url`, with its `Location` (if any) resolved against `url`. */
export function readPage(url: string, status: number, location: string | undefined, body: string): Page {
  return {
    url,
    status,
    // a Location that is no URL is kept as sent: the redirect is still an observation
    location: location === undefined ? null : (resolved(location, url) ?? location),
    body,
    name: /data-page="([^"]*)"/.exec(body)?.[1] ?? null,
    outcome: /data-outcome="([^"]*)"/.exec(body)?.[1] ?? null,
  };
}

/**
 * The page's POST forms by id, their actions resolved against the page's address. A form whose
 * action is no URL is left out: a browser could not submit it either.
 */
export function pageForms(page: Pick<Page, 'url' | 'body'>): Record<string, Form> {
  const out: Record<string, Form> = {};
  for (const m of page.body.matchAll(/<form id="([^"]+)" method="post" action="([^"]*)">(.*?)<\/form>/gs)) {
    const action = resolved(unescape(m[2] ?? ''), page.url);
    if (action === undefined) continue;
    const fields: Record<string, string> = {};
    for (const i of (m[3] ?? '').matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[unescape(i[1] ?? '')] = unescape(i[2] ?? '');
    out[m[1] ?? ''] = { action, fields };
  }
  return out;
}

/** `ref` read against `base`, or undefined when it is no URL. */
export function resolved(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).toString();
  } catch {
    return undefined;
  }
}
