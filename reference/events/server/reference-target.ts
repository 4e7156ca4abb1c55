import type { Step } from '../../../src/engine/model.js';
import type { ReferenceTarget, RunningReference } from '../../../src/engine/suite-module.js';
import { SEEDED_APM_ENV, SEEDED_APM_SERVICE } from '../model/dependencies.js';
import { MON_API_KEY, MON_API_KEY_RATE_LIMITED, MON_APP_KEY, MON_APP_KEY_NO_EVENTS_READ } from '../model/monitor-keys.js';
import { SEEDED_TAGGED_HOST } from '../model/monitor-seed.js';
import { SEEDED_PLATFORM } from '../model/platform-seed-accounts.js';
import { startEventsServer, type EventsServerOptions, type RunningEventsServer } from './server.js';

/**
 * The variables the events cases use, for a running reference service (see the suite's
 * suite.yaml). A profile for another implementation sets the same names. Beyond the required
 * ones: `deleted_issue_number` / `deleted_issue_event_id` (410), `renamed_repo` (301 on
 * network events), `private_repo` (visible with the token only), `repo_other_case`.
 */
export function eventsVars(server: Pick<RunningEventsServer, 'url' | 'ipRangesUrl' | 'apiUrl' | 'model'>): Record<string, unknown> {
  const p = SEEDED_PLATFORM;
  const store = server.model.platform;
  return {
    mon_url: server.url,
    ip_ranges_url: server.ipRangesUrl,
    mon_api_key: MON_API_KEY,
    mon_app_key: MON_APP_KEY,
    mon_app_key_no_events_read: MON_APP_KEY_NO_EVENTS_READ,
    mon_api_key_rate_limited: MON_API_KEY_RATE_LIMITED,
    mon_host: SEEDED_TAGGED_HOST.host,
    mon_host_tag: SEEDED_TAGGED_HOST.tag,
    apm_env: SEEDED_APM_ENV,
    apm_service: SEEDED_APM_SERVICE,
    api_url: server.apiUrl,
    api_token: p.token,
    owner: p.owner,
    // the same owner in other letter case: owner and repo are case-insensitive (002 H)
    owner_other_case: p.owner.toUpperCase() === p.owner ? p.owner.toLowerCase() : p.owner.toUpperCase(),
    repo: p.repo,
    repo_other_case: p.repo.toUpperCase() === p.repo ? p.repo.toLowerCase() : p.repo.toUpperCase(),
    org: p.org,
    username: p.username,
    issue_number: p.issueNumber,
    issue_event_id: store.firstIssueEventOf(p.owner, p.repo, p.issueNumber)?.id,
    deleted_issue_number: p.deletedIssueNumber,
    deleted_issue_event_id: store.firstIssueEventOf(p.owner, p.repo, p.deletedIssueNumber)?.id,
    renamed_repo: p.renamedRepo,
    private_repo: p.privateRepo,
  };
}

/**
 * The scripted action a profile for a served reference performs: a post to its user-agent
 * bridge with the parameters the cases give (a platform event on a repository, by an actor or for
 * a receiver, or an event of an issue). Every new-event step of the cases gives all of them.
 */
const BRIDGE_ACTIONS: Record<string, Step[]> = {
  'new-event': [
    {
      request: {
        method: 'POST',
        url: '${mon_url}/__specgate/agent/new-event',
        json: { stream: '${stream}', owner: '${owner}', repo: '${repo}', actor: '${actor}', receiver: '${receiver}', issue_number: '${issue_number}' },
      },
    },
  ],
};

/** Starts the reference service and describes it as a target, with its user agent. */
export async function startEventsReference(opts: EventsServerOptions = {}): Promise<RunningReference & { server: RunningEventsServer }> {
  const server = await startEventsServer(opts);
  const vars = eventsVars(server);
  const listening = server.url === server.listenUrl ? {} : { listening: server.listenUrl };
  return {
    description: `reference events services (spec 002 parts G and H) at ${server.url} (platform at ${server.apiUrl}${server.url === server.listenUrl ? '' : `; listening on ${server.listenUrl}`})`,
    vars,
    agent: server.agent,
    server,
    // run from another process, the user agent is reached through the bridge it then serves
    ...(opts.agentBridge ? { served: { vars, agent: { mode: 'scripted' as const, actions: BRIDGE_ACTIONS }, ...listening } } : {}),
    stop: () => server.stop(),
  };
}

/**
 * The embedded default target of the events suite: a fresh service on the engine's clock
 * (the 18-hour, 30-day and 300-event windows are judged on it), on `port` under
 * `specgate serve --port N`, where it also serves the user agent's bridge.
 */
export const eventsReference: ReferenceTarget = {
  start: ({ clock, port, standalone, publicUrl }) => startEventsReference({ clock, ...(port ? { port } : {}), ...(standalone ? { agentBridge: true } : {}), ...(publicUrl ? { publicUrl } : {}) }),
  takesPublicUrl: true,
};
