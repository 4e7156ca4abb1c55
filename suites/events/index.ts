import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { eventsReference } from '../../reference/events/server/reference-target.js';
import { cursorWalk } from './checks/cursor-walk.js';
import { dependencies } from './checks/dependencies.js';
import { idStr } from './checks/id-str.js';
import { postRules } from './checks/post-rules.js';
import { stream } from './checks/stream.js';
import { timeline } from './checks/timeline.js';
import { v1List } from './checks/v1-list.js';

/** Suite files live next to the sources; compiled code runs from dist/, so step back out. */
function suiteDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.replace(/([\\/])dist[\\/]suites[\\/]events$/, '$1suites$1events');
}

/**
 * The monitoring API (spec 002, part G: service dependencies, IP ranges, the event stream v1 and
 * v2) and the platform events API (part H: activity streams, issue events, ETag and
 * X-Poll-Interval polling), server side. Routes, shapes and statuses are data (api.yaml and
 * schemas/); typed checks judge what YAML cannot: the v1 list's rules against the target's own
 * list, the posting bounds on the target's clock, int64 ids, a cursor walk over a growing
 * stream, and timelines.
 */
export const suite: SuiteModule = {
  name: 'events',
  dir: suiteDir(),
  title: 'Monitoring events API and platform events API',
  checks: { cursorWalk, dependencies, idStr, postRules, stream, timeline, v1List },
  reference: eventsReference,
};
