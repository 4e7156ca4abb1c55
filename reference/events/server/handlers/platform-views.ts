import type { PlatformStore } from '../../model/platform-store.js';
import type { Account, Issue, IssueEvent, PlatformApp, PlatformEvent, Repo } from '../../model/platform-types.js';

/** Where people see the platform (html_url), and its avatars. */
export const PLATFORM_WEB = 'https://platform.example';
export const AVATARS = 'https://avatars.platform.example/u';

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const nodeId = (prefix: string, id: number): string => `${prefix}_${Buffer.from(`0:${id}`, 'utf8').toString('base64url')}`;

/** Renders the platform's records for one base URL (`api_url`). */
export class PlatformViews {
  constructor(
    private readonly api: string,
    private readonly store: PlatformStore,
  ) {}

  /** The compact actor of an activity event (H, "Platform event" actor). */
  actor(login: string): Record<string, unknown> {
    const a = this.store.account(login);
    return { id: a?.id ?? 0, login, display_login: login, avatar_service_id: '', url: `${this.api}/users/${login}`, avatar_url: `${AVATARS}/${a?.id ?? 0}?v=4` };
  }

  /** The full user object (H, "User object"). */
  user(login: string): Record<string, unknown> {
    const a = this.store.account(login);
    const id = a?.id ?? 0;
    const url = `${this.api}/users/${login}`;
    return {
      login,
      id,
      node_id: nodeId(a?.kind === 'Organization' ? 'O' : 'U', id),
      avatar_url: `${AVATARS}/${id}?v=4`,
      avatar_service_id: '',
      url,
      html_url: `${PLATFORM_WEB}/${login}`,
      followers_url: `${url}/followers`,
      following_url: `${url}/following{/other_user}`,
      gists_url: `${url}/gists{/gist_id}`,
      starred_url: `${url}/starred{/owner}{/repo}`,
      subscriptions_url: `${url}/subscriptions`,
      organizations_url: `${url}/orgs`,
      repos_url: `${url}/repos`,
      events_url: `${url}/events{/privacy}`,
      received_events_url: `${url}/received_events`,
      type: a?.kind ?? 'User',
      site_admin: a?.siteAdmin ?? false,
    };
  }

  private repoName(repo: Repo | undefined): string {
    return repo ? `${repo.owner}/${repo.name}` : 'unknown/unknown';
  }

  /** An activity event (H, "Platform event"); `org` when an organization owns the repository. */
  event(e: PlatformEvent): Record<string, unknown> {
    const repo = this.store.repoById(e.repoId);
    const org = repo ? this.store.org(repo.owner) : undefined;
    return {
      id: String(e.id),
      type: e.type,
      actor: this.actor(e.actor),
      repo: { id: e.repoId, name: this.repoName(repo), url: `${this.api}/repos/${this.repoName(repo)}` },
      payload: e.payload,
      public: e.public,
      created_at: iso(e.createdAtMs),
      ...(org ? { org: { id: org.id, login: org.login, avatar_service_id: '', url: `${this.api}/orgs/${org.login}`, avatar_url: `${AVATARS}/${org.id}?v=4` } } : {}),
    };
  }

  private milestone(repo: string, number: number | null): Record<string, unknown> | undefined {
    const m = this.store.milestones.find((x) => x.number === number);
    if (!m) return undefined;
    const url = `${this.api}/repos/${repo}/milestones/${m.number}`;
    return {
      url,
      html_url: `${PLATFORM_WEB}/${repo}/milestone/${m.number}`,
      labels_url: `${url}/labels`,
      id: m.id,
      node_id: nodeId('MI', m.id),
      number: m.number,
      state: m.state,
      title: m.title,
      description: m.description,
      creator: this.user(m.creator),
      open_issues: 4,
      closed_issues: 3,
      created_at: iso(m.createdAtMs),
      updated_at: iso(m.createdAtMs),
      closed_at: null,
      due_on: iso(m.dueOnMs),
    };
  }

  /** The issue object (H, "Issue object"); `pull_request` only on pull requests. */
  issue(i: Issue): Record<string, unknown> {
    const repo = this.repoName(this.store.repoById(i.repoId));
    const url = `${this.api}/repos/${repo}/issues/${i.number}`;
    const assignees = i.assignees.map((a) => this.user(a));
    return {
      id: i.id,
      node_id: nodeId(i.pullRequest ? 'PR' : 'I', i.id),
      url,
      repository_url: `${this.api}/repos/${repo}`,
      labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      html_url: `${PLATFORM_WEB}/${repo}/${i.pullRequest ? 'pull' : 'issues'}/${i.number}`,
      number: i.number,
      state: i.state,
      title: i.title,
      body: i.body,
      user: this.user(i.author),
      labels: i.labels.flatMap((name) => {
        const l = this.store.labels.find((x) => x.name === name);
        return l ? [{ id: l.id, node_id: nodeId('LA', l.id), url: `${this.api}/repos/${repo}/labels/${encodeURIComponent(l.name)}`, name: l.name, description: l.description, color: l.color, default: l.default }] : [];
      }),
      // the spec types these as objects and strings, so an issue without one leaves it out
      assignee: assignees[0],
      assignees,
      milestone: this.milestone(repo, i.milestone),
      locked: i.locked,
      active_lock_reason: i.activeLockReason ?? undefined,
      comments: i.comments,
      ...(i.pullRequest
        ? { pull_request: { url: `${this.api}/repos/${repo}/pulls/${i.number}`, html_url: `${PLATFORM_WEB}/${repo}/pull/${i.number}`, diff_url: `${PLATFORM_WEB}/${repo}/pull/${i.number}.diff`, patch_url: `${PLATFORM_WEB}/${repo}/pull/${i.number}.patch` } }
        : {}),
      closed_at: i.closedAtMs === null ? null : iso(i.closedAtMs),
      created_at: iso(i.createdAtMs),
      updated_at: iso(i.updatedAtMs),
      author_association: i.authorAssociation,
      state_reason: i.stateReason ?? undefined,
    };
  }

  /** The app object (H, "App object"). */
  app(a: PlatformApp): Record<string, unknown> {
    return {
      id: a.id,
      slug: a.slug,
      node_id: nodeId('A', a.id),
      owner: this.user(a.owner),
      name: a.name,
      description: a.description,
      external_url: a.externalUrl,
      html_url: `${PLATFORM_WEB}/apps/${a.slug}`,
      created_at: iso(a.createdAtMs),
      updated_at: iso(a.updatedAtMs),
      permissions: a.permissions,
      events: a.events,
    };
  }

  /** An issue event (H, "Issue event"); `issue` only where the spec includes it. */
  issueEvent(e: IssueEvent, withIssue: boolean): Record<string, unknown> {
    const issue = this.store.issueById(e.issueId);
    const repo = this.repoName(issue ? this.store.repoById(issue.repoId) : undefined);
    const app = e.viaApp ? this.store.apps.find((a) => a.slug === e.viaApp) : undefined;
    return {
      id: e.id,
      node_id: nodeId('IE', e.id),
      url: `${this.api}/repos/${repo}/issues/events/${e.id}`,
      actor: this.user(e.actor),
      event: e.event,
      commit_id: e.commitId,
      commit_url: `${this.api}/repos/${repo}/commits/${e.commitId}`,
      created_at: iso(e.createdAtMs),
      performed_via_platform_app: app ? this.app(app) : null,
      ...(e.label ? { label: e.label } : {}),
      ...(e.assignee ? { assignee: this.user(e.assignee), assigner: this.user(e.actor) } : {}),
      ...(withIssue && issue ? { issue: this.issue(issue) } : {}),
    };
  }
}
