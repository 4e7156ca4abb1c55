import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReferenceTarget, RunningReference, SuiteModule } from '../../src/engine/suite-module.js';
import { referenceEventsClientCommand } from '../../reference/events/client/command.js';
import { eventsReference } from '../../reference/events/server/reference-target.js';
import { clientRequests } from './checks/client-requests.js';
import { cursorWalk } from './checks/cursor-walk.js';
import { dependencies } from './checks/dependencies.js';
import { idStr } from './checks/id-str.js';
import { postRules } from './checks/post-rules.js';
import { stream } from './checks/stream.js';
import { timeline } from './checks/timeline.js';
import { v1List } from './checks/v1-list.js';
import { EVENTS_PASSIVE_RULES } from './passive/index.js';

/** Suite files live next to the sources; compiled code runs from dist/, so step back out. */
function suiteDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.replace(/([\\/])dist[\\/]suites[\\/]events$/, '$1suites$1events');
}

/** The reference client as the client under test, unless `--events-client` names another. */
function withClient(running: RunningReference): RunningReference {
  return { ...running, vars: { events_client_command: referenceEventsClientCommand(), ...running.vars } };
}

/** The reference services, in a worker thread of a run (in-process under `specgate serve` and in tests). */
const reference: ReferenceTarget = {
  start: async (opts) => withClient(await eventsReference.start(opts)),
  takesPublicUrl: eventsReference.takesPublicUrl,
  worker: { module: new URL('../../reference/events/server/reference-target.js', import.meta.url).href, name: 'eventsReference', around: withClient },
};

/**
 * The monitoring API (spec 002, part G: service dependencies, IP ranges, the event stream v1 and
 * v2) and the platform events API (part H: activity streams, issue events, ETag and
 * X-Poll-Interval polling), server side. Routes, shapes and statuses are data (api.yaml and
 * schemas/); typed checks judge what YAML cannot: the v1 list's rules against the target's own
 * list, the posting bounds on the target's clock, int64 ids, a cursor walk over a growing
 * stream, and timelines. With specgate playing both services, a client's requests are judged
 * too (`--events-client <command>`). From a recording (`--target har:`), passive rules judge
 * what only a whole recording shows: conditional polls, paging, timelines, cursors, keys, and the
 * client's requests.
 */
export const suite: SuiteModule = {
  name: 'events',
  dir: suiteDir(),
  title: 'Monitoring events API and platform events API',
  checks: { clientRequests, cursorWalk, dependencies, idStr, postRules, stream, timeline, v1List },
  passiveRules: EVENTS_PASSIVE_RULES,
  reference,
  targetOptions: [
    {
      flag: 'events-client',
      valueName: 'command',
      description: 'judge this monitoring and platform events client: a command line started with SPECGATE_MON_URL, SPECGATE_API_URL and the rest of reference/events/client/README.md naming the services specgate plays',
      vars: (value) => ({ events_client_command: value }),
      layer: 'reference',
    },
  ],
};
