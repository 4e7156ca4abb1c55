import type { Outcome } from '../../model/outcome.js';
import type { PlatformEvent } from '../../model/platform-types.js';
import { pageOf, paging, PER_PAGE_DEFAULT, PER_PAGE_MAX, PUBLIC_EVENTS_PER_PAGE_DEFAULT, strictPaging, streamVersion, timeline } from '../../model/timeline.js';
import { platformFailure, platformRefusal, queryOf, type Answer, type Handler, type HandlerContext, type OperationCall } from '../answers.js';
import { etagOf, linkHeader, pollable } from './platform-polling.js';
import { viewerOf } from './platform-viewer.js';
import { PlatformViews } from './platform-views.js';

/** Picks the events of one stream for a caller (undefined viewer: anonymous). */
export type StreamSelect = (call: OperationCall, ctx: HandlerContext, viewer: string | undefined) => Outcome<PlatformEvent[]>;

export interface StreamOptions {
  /** `per_page` when absent (H: 15 for /events, 30 elsewhere). */
  defaultPerPage: number;
  /** The largest `per_page` served (H: 100). */
  maxPerPage: number;
  /** What of the stream the timeline shows at `now` (H Events 2: 300 events of the past 30 days). */
  timeline: (events: readonly PlatformEvent[], now: number) => PlatformEvent[];
}

/** The reference's stream rules; `defaultPerPage` is per endpoint. */
export const REFERENCE_STREAM: Omit<StreamOptions, 'defaultPerPage'> = { maxPerPage: PER_PAGE_MAX, timeline };

const param = (call: OperationCall, name: string): string => call.params[name] ?? '';

/** The absolute URL of the request's path, for `Link` headers. */
const selfUrl = (call: OperationCall, ctx: HandlerContext): string => `${new URL(ctx.apiUrl).origin}${call.path}`;

/** Runs `then` for the caller the request's token names; 403 for a token the platform did not issue. */
export function asViewer(call: OperationCall, ctx: HandlerContext, then: (viewer: string | undefined) => Answer): Answer {
  const viewer = viewerOf(call, ctx.model.platform);
  return viewer.ok ? then(viewer.value) : platformFailure(403, viewer.messages[0] ?? 'Bad credentials');
}

/**
 * An activity stream endpoint: the stream's timeline, one page of it, pollable. The ETag is
 * made of the endpoint, its parameters, the caller, the page and the stream's version (its
 * newest event), so it changes exactly when the stream gains an event.
 */
export function streamHandler(select: StreamSelect, opts: StreamOptions): Handler {
  return (call, ctx) =>
    asViewer(call, ctx, (viewer) => {
      const selected = select(call, ctx, viewer);
      if (!selected.ok) return platformRefusal(selected);
      const p = paging(queryOf(call), opts.defaultPerPage, opts.maxPerPage);
      const shown = opts.timeline(selected.value, ctx.model.clock.now());
      const views = new PlatformViews(ctx.apiUrl, ctx.model.platform);
      const etag = etagOf([call.operationId, call.params, viewer ?? null, p.page, p.perPage, streamVersion(selected.value)]);
      const link = linkHeader(selfUrl(call, ctx), call.query, p.page, p.perPage, shown.length);
      return pollable(call, etag, pageOf(shown, p).map((e) => views.event(e)), link ? { link } : {});
    });
}

/** The stream of each activity endpoint of H, with its default page size. */
export const STREAMS: Readonly<Record<string, { select: StreamSelect; defaultPerPage: number }>> = {
  publicEvents: { select: (_c, ctx) => ({ ok: true, value: ctx.model.platform.publicEvents() }), defaultPerPage: PUBLIC_EVENTS_PER_PAGE_DEFAULT },
  networkEvents: {
    select: (call, ctx) => {
      const found = ctx.model.platform.networkEvents(param(call, 'owner'), param(call, 'repo'));
      return found.ok ? { ok: true, value: found.value.events } : found;
    },
    defaultPerPage: PER_PAGE_DEFAULT,
  },
  orgEvents: { select: (call, ctx) => ctx.model.platform.orgEvents(param(call, 'org')), defaultPerPage: PER_PAGE_DEFAULT },
  repoEvents: { select: (call, ctx, viewer) => ctx.model.platform.repoEvents(param(call, 'owner'), param(call, 'repo'), viewer), defaultPerPage: PER_PAGE_DEFAULT },
  userEvents: { select: (call, ctx, viewer) => ctx.model.platform.userEvents(param(call, 'username'), viewer), defaultPerPage: PER_PAGE_DEFAULT },
  userOrgEvents: { select: (call, ctx, viewer) => ctx.model.platform.userOrgEvents(param(call, 'username'), param(call, 'org'), viewer), defaultPerPage: PER_PAGE_DEFAULT },
  userPublicEvents: { select: (call, ctx) => ctx.model.platform.userPublicEvents(param(call, 'username')), defaultPerPage: PER_PAGE_DEFAULT },
  receivedEvents: { select: (call, ctx, viewer) => ctx.model.platform.receivedEvents(param(call, 'username'), viewer), defaultPerPage: PER_PAGE_DEFAULT },
  receivedPublicEvents: { select: (call, ctx) => ctx.model.platform.receivedPublicEvents(param(call, 'username')), defaultPerPage: PER_PAGE_DEFAULT },
};

/** Every activity endpoint built with `rules` (the reference's unless a variant gives others). */
export function streamHandlers(rules: Omit<StreamOptions, 'defaultPerPage'> = REFERENCE_STREAM): Record<string, Handler> {
  return Object.fromEntries(Object.entries(STREAMS).map(([id, s]) => [id, streamHandler(s.select, { ...rules, defaultPerPage: s.defaultPerPage })]));
}

/**
 * Network events answer 301 for a repository's former name (H Errors: "moved permanently"),
 * pointing at the same request under the current name.
 */
function redirectRenamed(stream: Handler): Handler {
  return (call, ctx) => {
    const found = ctx.model.platform.findRepo(param(call, 'owner'), param(call, 'repo'));
    if (!found?.renamed) return stream(call, ctx);
    const q = call.query.toString();
    const location = `${ctx.apiUrl}/networks/${found.repo.owner}/${found.repo.name}/events${q ? `?${q}` : ''}`;
    return { status: 301, headers: { location }, body: { message: 'Moved Permanently', url: location, documentation_url: 'https://docs.platform.example/rest/guides/redirects' } };
  };
}

const positiveInt = (s: string): number | undefined => (/^\d+$/.test(s) && Number(s) > 0 ? Number(s) : undefined);

/** GET /repos/{owner}/{repo}/issues/events: newest first, 422 for a `page`/`per_page` that is not a positive integer. */
const repoIssueEvents: Handler = (call, ctx) =>
  asViewer(call, ctx, (viewer) => {
    const problems = strictPaging(queryOf(call));
    if (problems.length) return platformRefusal({ ok: false, kind: 'invalid', messages: problems });
    const events = ctx.model.platform.repoIssueEvents(param(call, 'owner'), param(call, 'repo'), viewer);
    if (!events.ok) return platformRefusal(events);
    const p = paging(queryOf(call), PER_PAGE_DEFAULT);
    const views = new PlatformViews(ctx.apiUrl, ctx.model.platform);
    const link = linkHeader(selfUrl(call, ctx), call.query, p.page, p.perPage, events.value.length);
    const etag = etagOf([call.operationId, call.params, viewer ?? null, p.page, p.perPage, streamVersion(events.value)]);
    return pollable(call, etag, pageOf(events.value, p).map((e) => views.issueEvent(e, true)), link ? { link } : {});
  });

/** GET /repos/{owner}/{repo}/issues/{issue_number}/events: oldest first; 410 for a deleted issue. */
const issueEvents: Handler = (call, ctx) =>
  asViewer(call, ctx, (viewer) => {
    const number = positiveInt(param(call, 'issue_number'));
    if (number === undefined) return platformFailure(404, 'Not Found');
    const found = ctx.model.platform.issueEvents(param(call, 'owner'), param(call, 'repo'), number, viewer);
    if (!found.ok) return platformRefusal(found);
    const p = paging(queryOf(call), PER_PAGE_DEFAULT);
    const views = new PlatformViews(ctx.apiUrl, ctx.model.platform);
    const link = linkHeader(selfUrl(call, ctx), call.query, p.page, p.perPage, found.value.events.length);
    const etag = etagOf([call.operationId, call.params, viewer ?? null, p.page, p.perPage, streamVersion(found.value.events)]);
    return pollable(call, etag, pageOf(found.value.events, p).map((e) => views.issueEvent(e, false)), link ? { link } : {});
  });

/** GET /repos/{owner}/{repo}/issues/events/{event_id}: one issue event with its issue; 410 when the issue was deleted. */
const issueEvent: Handler = (call, ctx) =>
  asViewer(call, ctx, (viewer) => {
    const id = positiveInt(param(call, 'event_id'));
    if (id === undefined) return platformFailure(404, 'Not Found');
    const found = ctx.model.platform.issueEvent(param(call, 'owner'), param(call, 'repo'), id, viewer);
    if (!found.ok) return platformRefusal(found);
    const views = new PlatformViews(ctx.apiUrl, ctx.model.platform);
    const body = views.issueEvent(found.value.event, true);
    return pollable(call, etagOf([call.operationId, id, found.value.issue.updatedAtMs]), body);
  });

/** The platform operations of spec 002 H by operation ID. */
export function platformHandlers(rules: Omit<StreamOptions, 'defaultPerPage'> = REFERENCE_STREAM): Record<string, Handler> {
  const streams = streamHandlers(rules);
  const network = streams['networkEvents'];
  return { ...streams, ...(network ? { networkEvents: redirectRenamed(network) } : {}), repoIssueEvents, issueEvents, issueEvent };
}

export const PLATFORM_HANDLERS: Readonly<Record<string, Handler>> = platformHandlers();
