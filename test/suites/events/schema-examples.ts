/**
 * Hand-written examples of every events schema, built from the field tables of spec 002 (parts G
 * and H, "Resources and their fields"): each schema must accept its good examples and refuse
 * each bad one, which breaks exactly one rule of the spec (a wrong enum value, a missing
 * required field, a wrong type, a limit exceeded).
 */

type Json = unknown;
/** A schema's examples: values it accepts, and values it refuses with why. */
export interface Examples {
  good: Json[];
  bad: [why: string, value: Json][];
}

const without = <T extends Record<string, unknown>>(o: T, key: string): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

// ---------------------------------------------------------------- G
const eventV1 = {
  alert_type: 'info',
  date_happened: 1_700_000_000,
  device_name: 'eth0',
  host: 'web-1',
  // an int64 beyond 2^53, as the exact JSON parser hands it over
  id: 9_007_199_254_740_993n,
  id_str: '9007199254740993',
  payload: '{}',
  priority: 'normal',
  source_type_name: 'build system',
  tags: ['env:prod', 'team:core'],
  text: '%%% \nDeploy **done**\n %%%',
  title: 'Deploy finished',
  url: '/event/event?id=9007199254740993',
};

const group = { prefixes_ipv4: ['192.0.2.0/24'], prefixes_ipv6: ['2001:db8::/32'] };
const ipRanges = {
  modified: '2024-05-06-07-08-09',
  version: 57,
  agents: group,
  api: group,
  apm: group,
  global: group,
  logs: group,
  orchestrator: group,
  process: group,
  'remote-configuration': group,
  synthetics: { ...group, prefixes_ipv4_by_location: { 'aws:eu-west-1': ['198.51.100.0/24'] }, prefixes_ipv6_by_location: { 'aws:eu-west-1': [] } },
  'synthetics-private-locations': group,
  webhooks: group,
};

const v2Item = {
  id: 'AAAAAYxyz',
  type: 'event',
  attributes: {
    message: 'Deploy done',
    tags: ['env:prod'],
    timestamp: '2024-05-06T07:08:09.123Z',
    attributes: {
      aggregation_key: 'deploy-42',
      date_happened: 1_715_000_000,
      device_name: 'eth0',
      duration: 1_500_000_000,
      event_object: 'Deploy finished',
      evt: { id: '9007199254740993', name: 'Deploy finished', source_id: 7, type: 'deploy' },
      hostname: 'web-1',
      monitor: { created_at: 1_715_000_000_000_000_000n, group_status: 1, groups: ['host:web-1'], id: 12, message: 'CPU high', modified: 1_715_000_000, name: 'cpu', query: 'avg(last_5m):cpu > 90', tags: [], templated_name: 'cpu', type: 'metric alert' },
      monitor_groups: ['host:web-1'],
      monitor_id: null,
      priority: 'low',
      related_event_id: 9_007_199_254_740_995n,
      service: 'checkout',
      source_type_name: 'build system',
      sourcecategory: 'deploy',
      status: 'info',
      tags: ['env:prod'],
      timestamp: 1_715_000_000_123,
      title: 'Deploy finished',
    },
  },
};
const v2List = {
  data: [v2Item],
  links: { next: 'https://monitor.example/api/v2/events?page[cursor]=abc' },
  meta: { elapsed: 12, page: { after: 'abc' }, request_id: 'r-1', status: 'done', warnings: [{ code: 'partial', detail: 'one shard timed out', title: 'Partial results' }] },
};

// ---------------------------------------------------------------- H
const user = {
  login: 'octo',
  id: 1,
  node_id: 'U_1',
  avatar_url: 'https://avatars.example/u/1',
  avatar_service_id: '',
  url: 'https://api.example/users/octo',
  html_url: 'https://platform.example/octo',
  followers_url: 'https://api.example/users/octo/followers',
  following_url: 'https://api.example/users/octo/following{/other_user}',
  gists_url: 'https://api.example/users/octo/gists{/gist_id}',
  starred_url: 'https://api.example/users/octo/starred{/owner}{/repo}',
  subscriptions_url: 'https://api.example/users/octo/subscriptions',
  organizations_url: 'https://api.example/users/octo/orgs',
  repos_url: 'https://api.example/users/octo/repos',
  events_url: 'https://api.example/users/octo/events{/privacy}',
  received_events_url: 'https://api.example/users/octo/received_events',
  type: 'User',
  site_admin: false,
};
const label = { id: 208045946, node_id: 'L_1', url: 'https://api.example/repos/octo/hello/labels/bug', name: 'bug', description: "Something isn't working", color: 'f29513', default: true };
const milestone = {
  url: 'https://api.example/repos/octo/hello/milestones/1',
  html_url: 'https://platform.example/octo/hello/milestones/v1.0',
  labels_url: 'https://api.example/repos/octo/hello/milestones/1/labels',
  id: 1002604,
  node_id: 'M_1',
  number: 1,
  state: 'open',
  title: 'v1.0',
  description: 'Tracking milestone for version 1.0',
  creator: user,
  open_issues: 4,
  closed_issues: 8,
  created_at: '2011-04-10T20:09:31Z',
  updated_at: '2014-03-03T18:58:10Z',
  closed_at: '2013-02-12T13:22:01Z',
  due_on: '2012-10-09T23:39:01Z',
};
const app = {
  id: 1,
  slug: 'octoapp',
  node_id: 'A_1',
  owner: user,
  name: 'Octo App',
  description: 'An app',
  external_url: 'https://example.com',
  html_url: 'https://platform.example/apps/octoapp',
  created_at: '2017-07-08T16:18:44-04:00',
  updated_at: '2017-07-08T16:18:44-04:00',
  permissions: { metadata: 'read', contents: 'read', issues: 'write', single_file: 'write' },
  events: ['push', 'pull_request'],
};
const issue = {
  id: 1,
  node_id: 'I_1',
  url: 'https://api.example/repos/octo/hello/issues/1347',
  repository_url: 'https://api.example/repos/octo/hello',
  labels_url: 'https://api.example/repos/octo/hello/issues/1347/labels{/name}',
  comments_url: 'https://api.example/repos/octo/hello/issues/1347/comments',
  events_url: 'https://api.example/repos/octo/hello/issues/1347/events',
  html_url: 'https://platform.example/octo/hello/issues/1347',
  number: 1347,
  state: 'closed',
  title: 'Found a bug',
  body: "I'm having a problem with this.",
  user,
  labels: [label],
  assignee: user,
  assignees: [user],
  milestone,
  locked: true,
  active_lock_reason: 'too heated',
  comments: 0,
  pull_request: { url: 'https://api.example/repos/octo/hello/pulls/1347', html_url: 'https://platform.example/octo/hello/pull/1347', diff_url: 'x.diff', patch_url: 'x.patch' },
  closed_at: null,
  created_at: '2011-04-22T13:33:48Z',
  updated_at: '2011-04-22T13:33:48Z',
  author_association: 'COLLABORATOR',
  state_reason: 'completed',
};
const issueEvent = {
  id: 1,
  node_id: 'IE_1',
  url: 'https://api.example/repos/octo/hello/issues/events/1',
  actor: user,
  event: 'closed',
  commit_id: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
  commit_url: 'https://api.example/repos/octo/hello/commits/6dcb09b5b57875f334f61aebed695e2e4193db5e',
  created_at: '2011-04-14T16:00:49Z',
  performed_via_platform_app: null,
};
const labeledEvent = { ...issueEvent, id: 2, event: 'labeled', label: { name: 'bug', color: 'f29513' }, performed_via_platform_app: app, issue };

const actor = { id: 1, login: 'octo', display_login: 'octo', avatar_service_id: '', url: 'https://api.example/users/octo', avatar_url: 'https://avatars.example/u/1' };
const repo = { id: 3, name: 'octo/hello', url: 'https://api.example/repos/octo/hello' };
const org = { id: 9, login: 'octo-org', avatar_service_id: '', url: 'https://api.example/orgs/octo-org', avatar_url: 'https://avatars.example/o/9' };
const watchPayload = { action: 'started' };
const pushPayload = { repository_id: 3, push_id: 10115855396, ref: 'refs/heads/main', head: '7a8f3ac', before: '883efe0' };
const createPayload = { ref: 'v1', ref_type: 'tag', full_ref: 'refs/tags/v1', master_branch: 'main', description: null, pusher_type: 'user' };
const watch = { id: '22249084947', type: 'WatchEvent', actor, repo, payload: watchPayload, public: true, created_at: '2022-06-09T12:47:28Z' };
const push = { ...watch, id: '22249084948', type: 'PushEvent', payload: pushPayload, created_at: '2022-06-08T23:29:25+02:00' };
const create = { ...watch, id: '22249084949', type: 'CreateEvent', payload: createPayload, org };

/** Every schema of suites/events/schemas by name, with its examples. */
export const EXAMPLES: Record<string, Examples> = {
  'mon-dependency-map': {
    good: [{ checkout: { calls: ['payments', 'db'] }, db: { calls: [] } }, {}],
    bad: [
      ['a service without calls', { checkout: {} }],
      ['calls that are not strings', { checkout: { calls: [1] } }],
    ],
  },
  'mon-dependency': {
    good: [{ called_by: ['web'], calls: ['db'], name: 'checkout' }],
    bad: [
      ['name not a string', { called_by: [], calls: [], name: 5 }],
      ['calls not an array', { calls: 'db' }],
    ],
  },
  'mon-ip-ranges': {
    good: [ipRanges],
    bad: [
      ['modified not YYYY-MM-DD-hh-mm-ss', { ...ipRanges, modified: '2024-05-06T07:08:09Z' }],
      ['a missing group', without(ipRanges, 'webhooks')],
      ['synthetics without prefixes by location', { ...ipRanges, synthetics: group }],
      ['a group without ipv6 prefixes', { ...ipRanges, logs: { prefixes_ipv4: [] } }],
      ['version not an integer', { ...ipRanges, version: '57' }],
    ],
  },
  'mon-event-v1': {
    good: [eventV1, { id: 1, title: 'minimal' }],
    bad: [
      ['alert_type outside its enum', { ...eventV1, alert_type: 'critical' }],
      ['priority outside its enum', { ...eventV1, priority: 'high' }],
      ['text of 4001 characters', { ...eventV1, text: 'x'.repeat(4001) }],
      ['id_str not digits', { ...eventV1, id_str: '9e15' }],
      ['id not an integer', { ...eventV1, id: 1.5 }],
      ['date_happened as a string', { ...eventV1, date_happened: '1700000000' }],
    ],
  },
  'mon-event-v1-post': {
    good: [{ title: 'Deploy', text: 'done' }, { title: 'Deploy', text: 'x'.repeat(4000), aggregation_key: 'k'.repeat(100), related_event_id: 9_007_199_254_740_993n, alert_type: 'success', priority: 'low', tags: ['a:b'], date_happened: 1_700_000_000 }],
    bad: [
      ['no text', { title: 'Deploy' }],
      ['no title', { text: 'done' }],
      ['aggregation_key of 101 characters', { title: 't', text: 'x', aggregation_key: 'k'.repeat(101) }],
      ['related_event_id as a string', { title: 't', text: 'x', related_event_id: '5' }],
      ['alert_type outside its enum', { title: 't', text: 'x', alert_type: 'fatal' }],
    ],
  },
  'mon-events-v1-list': {
    good: [{ events: [eventV1], status: 'ok' }, { events: [], status: 'ok' }],
    bad: [
      ['no status', { events: [] }],
      ['an event with a wrong priority', { events: [{ ...eventV1, priority: 'urgent' }], status: 'ok' }],
    ],
  },
  'mon-event-v1-post-answer': {
    good: [{ event: eventV1, status: 'ok' }],
    bad: [
      ['no event', { status: 'ok' }],
      ['an event with a wrong alert_type', { event: { ...eventV1, alert_type: 'page' }, status: 'ok' }],
    ],
  },
  'mon-events-v2-list': {
    good: [v2List, { data: [], links: {}, meta: {} }],
    bad: [
      ['no meta', without(v2List, 'meta')],
      ['an item of another type', { ...v2List, data: [{ ...v2Item, type: 'alert' }] }],
      ['a status outside its enum', { ...v2List, data: [{ ...v2Item, attributes: { ...v2Item.attributes, attributes: { ...v2Item.attributes.attributes, status: 'critical' } } }] }],
      ['a timestamp that is not a date-time', { ...v2List, data: [{ ...v2Item, attributes: { ...v2Item.attributes, timestamp: 'yesterday' } }] }],
      ['group_status beyond int32', { ...v2List, data: [{ ...v2Item, attributes: { ...v2Item.attributes, attributes: { ...v2Item.attributes.attributes, monitor: { group_status: 2 ** 31 } } } }] }],
      ['a page cursor that is not a string', { ...v2List, meta: { page: { after: 3 } } }],
    ],
  },
  'mon-error': {
    good: [{ errors: ['Bad Request'] }, { errors: [] }],
    bad: [
      ['no errors', {}],
      ['errors as one string', { errors: 'Forbidden' }],
    ],
  },
  'platform-user': {
    good: [user],
    bad: [
      ['site_admin not a boolean', { ...user, site_admin: 'no' }],
      ['no html_url', without(user, 'html_url')],
      ['no received_events_url', without(user, 'received_events_url')],
    ],
  },
  'platform-label': {
    good: [label],
    bad: [
      ['default not a boolean', { ...label, default: 'yes' }],
      ['no description', without(label, 'description')],
    ],
  },
  'platform-milestone': {
    good: [milestone],
    bad: [
      ['creator not a user object', { ...milestone, creator: 'octo' }],
      ['no due_on', without(milestone, 'due_on')],
      ['a creator without login', { ...milestone, creator: without(user, 'login') }],
    ],
  },
  'platform-app': {
    good: [app],
    bad: [
      ['events not an array', { ...app, events: 'push' }],
      ['a permission that is not a string', { ...app, permissions: { issues: 1 } }],
      ['no slug', without(app, 'slug')],
      ['no external_url', without(app, 'external_url')],
    ],
  },
  'platform-issue': {
    // what an issue may lack (an assignee, a milestone, a lock, a closing reason, being a pull request) it may leave out
    good: [issue, without(issue, 'pull_request'), ['assignee', 'milestone', 'active_lock_reason', 'state_reason', 'pull_request'].reduce<Record<string, unknown>>((o, k) => without(o, k), issue)],
    bad: [
      ['number not an integer', { ...issue, number: '1347' }],
      ['locked not a boolean', { ...issue, locked: 'no' }],
      ['a label whose default is not a boolean', { ...issue, labels: [{ ...label, default: 'x' }] }],
      ['an assignee that is not a user object', { ...issue, assignee: 'octo' }],
      ['no user', without(issue, 'user')],
      ['no repository_url', without(issue, 'repository_url')],
      ['a milestone without due_on', { ...issue, milestone: without(milestone, 'due_on') }],
      ['a label without node_id', { ...issue, labels: [without(label, 'node_id')] }],
    ],
  },
  'platform-issue-event': {
    good: [issueEvent, labeledEvent],
    bad: [
      ['no commit_id', without(issueEvent, 'commit_id')],
      ['no actor', without(issueEvent, 'actor')],
      ['id not an integer', { ...issueEvent, id: '1' }],
      ['performed_via_platform_app neither an app nor null', { ...issueEvent, performed_via_platform_app: 'octoapp' }],
      ['a label without color', { ...labeledEvent, label: { name: 'bug' } }],
      ['an actor without html_url', { ...issueEvent, actor: without(user, 'html_url') }],
      ['an app without slug', { ...labeledEvent, performed_via_platform_app: without(app, 'slug') }],
    ],
  },
  'platform-issue-event-with-issue': {
    good: [labeledEvent, { ...issueEvent, issue }],
    bad: [
      ['no issue', issueEvent],
      ['an issue whose state is not a string', { ...issueEvent, issue: { ...issue, state: 1 } }],
    ],
  },
  'platform-issue-events': {
    good: [[issueEvent, labeledEvent], []],
    bad: [
      ['an event without event', [without(issueEvent, 'event')]],
      ['not an array', issueEvent],
    ],
  },
  'platform-repo-issue-events': {
    good: [[labeledEvent, { ...issueEvent, issue }]],
    bad: [
      ['an event without its issue', [labeledEvent, issueEvent]],
      ['an issue whose milestone lacks closed_issues', [{ ...issueEvent, issue: { ...issue, milestone: without(milestone, 'closed_issues') } }]],
    ],
  },
  'platform-watch-payload': {
    good: [watchPayload],
    bad: [['no action', {}]],
  },
  'platform-push-payload': {
    good: [pushPayload],
    bad: [['no head', without(pushPayload, 'head')]],
  },
  'platform-create-payload': {
    good: [createPayload, { ...createPayload, description: 'first release' }],
    bad: [
      ['no full_ref', without(createPayload, 'full_ref')],
      ['description neither a string nor null', { ...createPayload, description: 7 }],
    ],
  },
  'platform-event': {
    // a type whose payload the spec does not show keeps any payload
    good: [watch, push, create, { ...watch, type: 'ForkEvent', payload: { forkee: {} } }],
    bad: [
      ['a WatchEvent payload without action', { ...watch, payload: {} }],
      ['a PushEvent payload without push_id', { ...push, payload: without(pushPayload, 'push_id') }],
      ['a CreateEvent payload without ref_type', { ...create, payload: without(createPayload, 'ref_type') }],
      ['public not a boolean', { ...watch, public: 'yes' }],
      ['created_at not an ISO 8601 date-time', { ...watch, created_at: '09/06/2022' }],
      ['actor id not an integer', { ...watch, actor: { ...actor, id: '1' } }],
      ['no repo', without(watch, 'repo')],
      ['an org without login', { ...create, org: without(org, 'login') }],
    ],
  },
  'platform-event-payloads': {
    // a type whose payload the spec does not show keeps any payload; the rest of an event is the shape rule's
    good: [[watch, push, create, { ...watch, type: 'ForkEvent', payload: { forkee: {} } }, { type: 'WatchEvent', payload: watchPayload }], []],
    bad: [
      ['a PushEvent payload without repository_id', [watch, { ...push, payload: without(pushPayload, 'repository_id') }]],
      ['a WatchEvent without payload', [without(watch, 'payload')]],
      ['a CreateEvent payload whose description is a number', [{ ...create, payload: { ...createPayload, description: 7 } }]],
    ],
  },
  'platform-events': {
    good: [[watch, push, create], []],
    bad: [['an event whose CreateEvent payload lacks full_ref', [watch, { ...create, payload: without(createPayload, 'full_ref') }]]],
  },
  'platform-org-events': {
    good: [[create, { ...watch, org }]],
    bad: [['an organization event without org', [create, watch]]],
  },
};
