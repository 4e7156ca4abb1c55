import type { MatchedExchange } from '../../../src/engine/suite-module.js';
import type { PassiveRule, PassiveRuleFinding } from '../../../src/engine/suite-module.js';
import { answerHeader, exchangesOf, platformOperations, sameUrl, sentHeader, verdict } from './recorded.js';

/** An entity tag as If-None-Match compares it: without `W/` and, leniently, without its quotes. */
const bare = (tag: string): string => tag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1');

/**
 * Conditional polls of the platform (H, Polling rules), each compared with the 200 answers of
 * the same URL before it. A poll whose If-None-Match is, quotes included, the ETag of an earlier
 * 200 and that is answered 200 with that answer's very body and ETag had to be 304: nothing new
 * exists. A 304 to an If-None-Match that names no ETag the platform gave for that URL (though
 * the recording holds one) says "nothing new" about a state it never served.
 */
export const conditionalPolls: PassiveRule = {
  description: 'conditional platform polls: 304 when the answer would be the one the ETag names, and only then',
  requirements: ['EVENTS-PLAT-NOT-MODIFIED', 'EVENTS-PLAT-MODIFIED'],
  judge(view) {
    const earlier = new Map<string, MatchedExchange[]>();
    /** Every ETag the platform answered for a URL (on a 200 or a 304). */
    const tags = new Map<string, Set<string>>();
    const unchanged: PassiveRuleFinding[] = [];
    const stale: PassiveRuleFinding[] = [];
    let repeats = 0;
    let notModified = 0;
    for (const x of exchangesOf(view, platformOperations(view).map((o) => o.id))) {
      const url = sameUrl(x);
      const before = earlier.get(url) ?? [];
      const sent = sentHeader(x, 'if-none-match');
      const last = before[before.length - 1];
      if (sent !== undefined && last !== undefined) {
        const named = before.filter((b) => answerHeader(b, 'etag') === sent.trim()).pop();
        if (named && x.recorded.status === 304) repeats++;
        if (named && x.recorded.status === 200 && named.recorded.responseText !== undefined && x.recorded.responseText !== undefined) {
          repeats++;
          if (answerHeader(x, 'etag') === answerHeader(named, 'etag') && x.recorded.responseText === named.recorded.responseText)
            unchanged.push({ message: `If-None-Match: ${sent} (the ETag of entry ${named.recorded.index}) was answered 200 with the same body and ETag as that answer: nothing new exists, so the answer is 304`, expected: 304, actual: 200, exchange: x });
        }
        if (x.recorded.status === 304 && !sent.split(',').some((t) => t.trim() === '*')) {
          notModified++;
          const given = tags.get(url) ?? new Set<string>();
          if (!sent.split(',').some((t) => given.has(bare(t))))
            stale.push({ message: `answered 304 to If-None-Match: ${sent}, which names no ETag the platform gave for this URL (it gave ${[...given].map((t) => `"${t}"`).join(', ') || 'none'})`, expected: 200, actual: 304, exchange: x });
        }
      }
      if (x.recorded.status === 200) earlier.set(url, [...before, x]);
      const etag = answerHeader(x, 'etag');
      if (etag !== undefined && (x.recorded.status === 200 || x.recorded.status === 304)) tags.set(url, new Set([...(tags.get(url) ?? []), bare(etag)]));
    }
    return [
      verdict('EVENTS-PLAT-NOT-MODIFIED', repeats, unchanged, 'no platform request sent, as If-None-Match, the ETag of an earlier 200 of its URL (answered 304, or 200 with a body to compare)'),
      verdict('EVENTS-PLAT-MODIFIED', notModified, stale, 'no platform request with If-None-Match was answered 304 after a recorded 200 of its URL'),
    ];
  },
};
