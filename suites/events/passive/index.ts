import type { PassiveRule } from '../../../src/engine/suite-module.js';
import { clientRequests } from './client-requests.js';
import { conditionalPolls } from './conditional-polls.js';
import { errorBody } from './error-body.js';
import { monKeys } from './mon-keys.js';
import { paging } from './paging.js';
import { pollingHeaders } from './polling-headers.js';
import { postDate } from './post-date.js';
import { timeline } from './timeline.js';
import { v2Cursor } from './v2-cursor.js';
import { v2Sort } from './v2-sort.js';

/** The events suite's rules over a whole recording (`--target har:`), by name: each a case `passive:<name>`. */
export const EVENTS_PASSIVE_RULES: Readonly<Record<string, PassiveRule>> = {
  'conditional-polls': conditionalPolls,
  'polling-headers': pollingHeaders,
  paging,
  timeline,
  'v2-cursor': v2Cursor,
  'v2-sort': v2Sort,
  'post-date': postDate,
  'mon-keys': monKeys,
  'error-body': errorBody,
  'client-requests': clientRequests,
};
