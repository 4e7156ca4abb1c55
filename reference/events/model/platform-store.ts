import type { Clock } from '../../../src/engine/clock.js';
import { done, forbidden, gone, notFound, type Outcome } from './outcome.js';
import { ACCOUNTS, FOLLOWS, LABELS, MEMBERS, REPOS, SEEDED_PLATFORM, WATCHES, seededApps, seededMilestones } from './platform-seed-accounts.js';
import { payloadFor, seedIssues, seedPlatformEvents } from './platform-seed.js';
import type { Account, EventType, Issue, IssueEvent, Label, Milestone, PlatformApp, PlatformEvent, Repo } from './platform-types.js';
import { SeededRandom } from '../../../src/engine/seeded-random.js';
import { newestEventFirst } from './timeline.js';

export interface PlatformStoreOptions {
  clock: Clock;
  /** Seed of the generated activity (default 2002). */
  seed?: number;
}

/** A repository found by name: `renamed` when the name was a former one (it redirects). */
export interface FoundRepo {
  repo: Repo;
  renamed: boolean;
}

/** What a new activity event is (the user agent's "new event" makes a WatchEvent). */
export interface NewPlatformEvent {
  owner: string;
  repo: string;
  type?: EventType;
  /** Login of the actor (default eli-tests, a user who watches nothing). */
  actor?: string;
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * The platform of spec 002 part H, in memory, on a clock: accounts, organizations and their
 * members, repositories (a fork network, a private one, a renamed one), activity events,
 * issues and issue events. Streams are answered whole and unordered; the timeline limits,
 * ordering and paging are timeline.ts's. Names match case-insensitively (H: owner and repo
 * are case-insensitive).
 */
export class PlatformStore {
  readonly accounts: readonly Account[] = ACCOUNTS;
  readonly repos: readonly Repo[] = REPOS;
  readonly labels: readonly Label[] = LABELS;
  readonly milestones: readonly Milestone[];
  readonly apps: readonly PlatformApp[];
  private readonly events: PlatformEvent[];
  private readonly issues: Issue[];
  private readonly issueEventList: IssueEvent[];
  private readonly rng: SeededRandom;
  private readonly clock: Clock;

  constructor(opts: PlatformStoreOptions) {
    this.clock = opts.clock;
    const now = this.clock.now();
    this.rng = new SeededRandom(opts.seed ?? 2002);
    this.events = seedPlatformEvents(this.rng, now);
    const seeded = seedIssues(this.rng, now);
    this.issues = seeded.issues;
    this.issueEventList = seeded.events;
    this.milestones = seededMilestones(now);
    this.apps = seededApps(now);
  }

  now(): number {
    return this.clock.now();
  }

  account(login: string): Account | undefined {
    return this.accounts.find((a) => same(a.login, login));
  }

  user(login: string): Account | undefined {
    const a = this.account(login);
    return a?.kind === 'User' ? a : undefined;
  }

  org(login: string): Account | undefined {
    const a = this.account(login);
    return a?.kind === 'Organization' ? a : undefined;
  }

  isMember(login: string, org: string): boolean {
    return Object.entries(MEMBERS).some(([o, members]) => same(o, org) && members.some((m) => same(m, login)));
  }

  /** The login a bearer token belongs to; undefined for no token; forbidden for an unknown one. */
  viewerOf(token: string | undefined): Outcome<string | undefined> {
    if (token === undefined) return done(undefined);
    return token === SEEDED_PLATFORM.token ? done(SEEDED_PLATFORM.username) : forbidden('Bad credentials');
  }

  repoById(id: number): Repo | undefined {
    return this.repos.find((r) => r.id === id);
  }

  /** A repository by `owner/name` or a former name of it; `name.git` is not a name. */
  findRepo(owner: string, name: string): FoundRepo | undefined {
    const repo = this.repos.find((r) => same(r.owner, owner) && same(r.name, name));
    if (repo) return { repo, renamed: false };
    const moved = this.repos.find((r) => r.formerNames.some((n) => same(n, `${owner}/${name}`)));
    return moved ? { repo: moved, renamed: true } : undefined;
  }

  /** Public repositories to anyone; a private one to its owner and the members of its organization. */
  canSee(repo: Repo, viewer: string | undefined): boolean {
    return !repo.private || (viewer !== undefined && (same(repo.owner, viewer) || this.isMember(viewer, repo.owner)));
  }

  private visibleTo(viewer: string | undefined): (e: PlatformEvent) => boolean {
    return (e) => {
      if (e.public) return true;
      const repo = this.repoById(e.repoId);
      return repo !== undefined && this.canSee(repo, viewer);
    };
  }

  private repoFor(owner: string, name: string, viewer: string | undefined): Outcome<FoundRepo> {
    const found = this.findRepo(owner, name);
    return found && this.canSee(found.repo, viewer) ? done(found) : notFound(`repository ${owner}/${name} was not found`);
  }

  /** GET /events: every public event. */
  publicEvents(): PlatformEvent[] {
    return this.events.filter((e) => e.public);
  }

  /** GET /networks/{owner}/{repo}/events: the public events of every repository of the network. */
  networkEvents(owner: string, name: string): Outcome<{ events: PlatformEvent[]; repo: Repo; renamed: boolean }> {
    const found = this.repoFor(owner, name, undefined);
    if (!found.ok) return found;
    const network = new Set(this.repos.filter((r) => r.networkId === found.value.repo.networkId).map((r) => r.id));
    return done({ ...found.value, events: this.events.filter((e) => e.public && network.has(e.repoId)) });
  }

  /** GET /orgs/{org}/events: the public events of the organization's repositories. */
  orgEvents(org: string): Outcome<PlatformEvent[]> {
    if (!this.org(org)) return notFound(`organization ${org} was not found`);
    return done(this.events.filter((e) => e.public && same(this.repoById(e.repoId)?.owner ?? '', org)));
  }

  /** GET /repos/{owner}/{repo}/events: a private repository's only to those who may see it. */
  repoEvents(owner: string, name: string, viewer: string | undefined): Outcome<PlatformEvent[]> {
    const found = this.repoFor(owner, name, viewer);
    if (!found.ok) return found;
    return done(this.events.filter((e) => e.repoId === found.value.repo.id));
  }

  /** GET /users/{username}/events: what the user did; the private part only to the user. */
  userEvents(username: string, viewer: string | undefined): Outcome<PlatformEvent[]> {
    if (!this.user(username)) return notFound(`user ${username} was not found`);
    const mine = viewer !== undefined && same(viewer, username);
    return done(this.events.filter((e) => same(e.actor, username) && (e.public || (mine && this.visibleTo(viewer)(e)))));
  }

  /** GET /users/{username}/events/public. */
  userPublicEvents(username: string): Outcome<PlatformEvent[]> {
    return this.userEvents(username, undefined);
  }

  /** GET /users/{username}/events/orgs/{org}: the organization dashboard, for the user only. */
  userOrgEvents(username: string, org: string, viewer: string | undefined): Outcome<PlatformEvent[]> {
    if (!this.user(username)) return notFound(`user ${username} was not found`);
    if (!this.org(org)) return notFound(`organization ${org} was not found`);
    if (viewer === undefined || !same(viewer, username)) return forbidden('Must be authenticated as the user to view the organization dashboard');
    if (!this.isMember(username, org)) return forbidden(`${username} is not a member of ${org}`);
    return done(this.events.filter((e) => same(this.repoById(e.repoId)?.owner ?? '', org)));
  }

  /**
   * GET /users/{username}/received_events: events of the repositories the user watches and of
   * the users it follows; private ones only to the user itself.
   */
  receivedEvents(username: string, viewer: string | undefined, publicOnly = false): Outcome<PlatformEvent[]> {
    const user = this.user(username);
    if (!user) return notFound(`user ${username} was not found`);
    const watched = new Set(WATCHES[user.login] ?? []);
    const followed = FOLLOWS[user.login] ?? [];
    const mine = !publicOnly && viewer !== undefined && same(viewer, username);
    const visible = this.visibleTo(viewer);
    return done(
      this.events.filter((e) => (watched.has(e.repoId) || followed.some((f) => same(f, e.actor))) && !same(e.actor, username) && (e.public || (mine && visible(e)))),
    );
  }

  /** GET /users/{username}/received_events/public. */
  receivedPublicEvents(username: string): Outcome<PlatformEvent[]> {
    return this.receivedEvents(username, undefined, true);
  }

  /** An issue of a repository by number (deleted ones included). */
  issue(repo: Repo, number: number): Issue | undefined {
    return this.issues.find((i) => i.repoId === repo.id && i.number === number);
  }

  issueById(id: number): Issue | undefined {
    return this.issues.find((i) => i.id === id);
  }

  /** GET /repos/{owner}/{repo}/issues/events: newest first, deleted issues' events left out. */
  repoIssueEvents(owner: string, name: string, viewer: string | undefined): Outcome<IssueEvent[]> {
    const found = this.repoFor(owner, name, viewer);
    if (!found.ok) return found;
    const live = new Set(this.issues.filter((i) => i.repoId === found.value.repo.id && !i.deleted).map((i) => i.id));
    return done(this.issueEventList.filter((e) => live.has(e.issueId)).sort(newestIssueEventFirst));
  }

  /** GET /repos/{owner}/{repo}/issues/events/{event_id}: gone when its issue was deleted. */
  issueEvent(owner: string, name: string, eventId: number, viewer: string | undefined): Outcome<{ event: IssueEvent; issue: Issue }> {
    const found = this.repoFor(owner, name, viewer);
    if (!found.ok) return found;
    const event = this.issueEventList.find((e) => e.id === eventId);
    const issue = event ? this.issueById(event.issueId) : undefined;
    if (!event || !issue || issue.repoId !== found.value.repo.id) return notFound(`issue event ${eventId} was not found`);
    if (issue.deleted) return gone('This issue was deleted');
    return done({ event, issue });
  }

  /** GET /repos/{owner}/{repo}/issues/{issue_number}/events: oldest first; gone when deleted. */
  issueEvents(owner: string, name: string, number: number, viewer: string | undefined): Outcome<{ events: IssueEvent[]; issue: Issue }> {
    const found = this.repoFor(owner, name, viewer);
    if (!found.ok) return found;
    const issue = this.issue(found.value.repo, number);
    if (!issue) return notFound(`issue ${number} was not found`);
    if (issue.deleted) return gone('This issue was deleted');
    return done({ issue, events: this.issueEventList.filter((e) => e.issueId === issue.id).sort((a, b) => -newestIssueEventFirst(a, b)) });
  }

  /** The first event of an issue (the seeded `issue_event_id` and its deleted counterpart). */
  firstIssueEventOf(owner: string, name: string, number: number): IssueEvent | undefined {
    const found = this.findRepo(owner, name);
    const issue = found ? this.issue(found.repo, number) : undefined;
    return issue ? this.issueEventList.filter((e) => e.issueId === issue.id).sort((a, b) => -newestIssueEventFirst(a, b))[0] : undefined;
  }

  /**
   * Where an event `receiver` receives can happen: on `owner/name` when the receiver watches it,
   * else on the first repository it watches; by a user other than the receiver. Undefined when
   * the receiver is no user or watches nothing.
   */
  receivedAt(receiver: string, owner: string, name: string): { owner: string; repo: string; actor: string } | undefined {
    const user = this.user(receiver);
    const watched = user ? WATCHES[user.login] ?? [] : [];
    const asked = this.findRepo(owner, name)?.repo;
    const repo = asked && watched.includes(asked.id) ? asked : this.repos.find((r) => watched.includes(r.id));
    const actor = this.accounts.find((a) => a.kind === 'User' && !same(a.login, receiver));
    return repo && actor ? { owner: repo.owner, repo: repo.name, actor: actor.login } : undefined;
  }

  /** Makes a new activity event happen now on `owner/repo` (a WatchEvent unless told). */
  addPlatformEvent(spec: NewPlatformEvent): Outcome<PlatformEvent> {
    const found = this.findRepo(spec.owner, spec.repo);
    if (!found) return notFound(`repository ${spec.owner}/${spec.repo} was not found`);
    const actor = this.user(spec.actor ?? 'eli-tests');
    if (!actor) return notFound(`user ${spec.actor ?? ''} was not found`);
    const type = spec.type ?? 'WatchEvent';
    const last = this.events.reduce((max, e) => Math.max(max, e.id), 0);
    const event: PlatformEvent = {
      id: last + 3,
      type,
      actor: actor.login,
      repoId: found.repo.id,
      public: !found.repo.private,
      createdAtMs: this.clock.now(),
      payload: payloadFor(this.rng, type, found.repo, 17_400_000_000 + this.events.length),
    };
    this.events.push(event);
    return done(event);
  }

  /** Makes a new issue event happen now on an existing issue. */
  addIssueEvent(owner: string, name: string, number: number, event: string, actor = 'bruno-ops'): Outcome<IssueEvent> {
    const found = this.findRepo(owner, name);
    const issue = found ? this.issue(found.repo, number) : undefined;
    if (!issue) return notFound(`issue ${owner}/${name}#${number} was not found`);
    const last = this.issueEventList.reduce((max, e) => Math.max(max, e.id), 0);
    const added: IssueEvent = { id: last + 11, issueId: issue.id, actor, event, commitId: this.rng.hex(40), viaApp: null, createdAtMs: this.clock.now() };
    this.issueEventList.push(added);
    return done(added);
  }
}

function newestIssueEventFirst(a: IssueEvent, b: IssueEvent): number {
  return b.createdAtMs - a.createdAtMs || b.id - a.id;
}
