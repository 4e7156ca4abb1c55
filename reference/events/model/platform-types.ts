/**
 * The platform side of spec 002 part H: accounts, repositories, activity events, issues and
 * their events. These records hold facts only; the server renders them (URLs, node ids) for
 * its own base address.
 */

export interface Account {
  id: number;
  login: string;
  kind: 'User' | 'Organization';
  siteAdmin: boolean;
}

export interface Repo {
  id: number;
  /** Login of the owning user or organization. */
  owner: string;
  name: string;
  private: boolean;
  /** The id of the repository at the root of its fork network (its own id for a root). */
  networkId: number;
  /** Names the repository had before a rename (`owner/name`), which redirect. */
  formerNames: string[];
  description: string | null;
  defaultBranch: string;
}

export const EVENT_TYPES = ['WatchEvent', 'PushEvent', 'CreateEvent'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An activity event (H, "Platform event"); payload fields as the spec lists them per type. */
export interface PlatformEvent {
  id: number;
  type: EventType;
  /** Login of the actor. */
  actor: string;
  repoId: number;
  public: boolean;
  createdAtMs: number;
  payload: Record<string, unknown>;
}

export interface Label {
  id: number;
  name: string;
  description: string;
  color: string;
  default: boolean;
}

export interface Milestone {
  id: number;
  number: number;
  title: string;
  description: string;
  state: 'open' | 'closed';
  creator: string;
  createdAtMs: number;
  dueOnMs: number;
}

export interface Issue {
  id: number;
  repoId: number;
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  stateReason: 'completed' | 'not_planned' | 'reopened' | null;
  author: string;
  labels: string[];
  assignees: string[];
  milestone: number | null;
  locked: boolean;
  activeLockReason: string | null;
  comments: number;
  pullRequest: boolean;
  authorAssociation: 'OWNER' | 'MEMBER' | 'CONTRIBUTOR' | 'NONE';
  createdAtMs: number;
  updatedAtMs: number;
  closedAtMs: number | null;
  /** A deleted issue's events answer 410 Gone (H, Errors). */
  deleted: boolean;
}

/** An issue event (H, "Issue event"). */
export interface IssueEvent {
  id: number;
  issueId: number;
  actor: string;
  /** `closed`, `labeled`, `assigned`, ... */
  event: string;
  /**
   * The commit the event refers to. The spec types `commit_id` and `commit_url` as strings
   * without "or null" (unlike `performed_via_platform_app`), so every event names one.
   */
  commitId: string;
  /** On label-related events. */
  label?: { name: string; color: string };
  /** On assignment events: the login assigned. */
  assignee?: string;
  /** The slug of the app the event was performed through, if any. */
  viaApp: string | null;
  createdAtMs: number;
}

/** An app events may be performed through (H, "App object"). */
export interface PlatformApp {
  id: number;
  slug: string;
  name: string;
  owner: string;
  description: string;
  externalUrl: string;
  createdAtMs: number;
  updatedAtMs: number;
  permissions: Record<string, string>;
  events: string[];
}
