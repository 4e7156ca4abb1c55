import { LABELS, REPOS } from './platform-seed-accounts.js';
import type { EventType, Issue, IssueEvent, PlatformEvent, Repo } from './platform-types.js';
import type { SeededRandom } from '../../../src/engine/seeded-random.js';

const DAY = 86_400_000;
/** First activity event id; later ones follow. */
export const FIRST_EVENT_ID = 41_920_000_001;
/** First issue event id. */
export const FIRST_ISSUE_EVENT_ID = 8_100_000_001;

/**
 * Where the seed puts activity, per repository: events of the past 30 days (`recent`),
 * older ones (`older`, 31 to 90 days old), and who acts. acme-tools/widget has more than 300
 * recent events and some older ones, so both timeline limits show on it (H, Events 2).
 */
export const ACTIVITY: ReadonlyArray<{ repoId: number; recent: number; older: number; actors: readonly string[] }> = [
  { repoId: 3001, recent: 340, older: 30, actors: ['alice-dev', 'bruno-ops', 'chen-writes', 'dana-builds', 'eli-tests'] },
  { repoId: 3002, recent: 15, older: 0, actors: ['bruno-ops'] },
  { repoId: 3003, recent: 40, older: 5, actors: ['bruno-ops', 'chen-writes', 'eli-tests'] },
  { repoId: 3004, recent: 20, older: 0, actors: ['alice-dev', 'bruno-ops'] },
  { repoId: 3005, recent: 50, older: 5, actors: ['dana-builds', 'alice-dev', 'eli-tests'] },
  { repoId: 3006, recent: 20, older: 8, actors: ['alice-dev'] },
];

/** A payload as the spec lists it for each type (H, "Payload by type"). */
export function payloadFor(rng: SeededRandom, type: EventType, repo: Repo, pushId: number): Record<string, unknown> {
  switch (type) {
    case 'WatchEvent':
      return { action: 'started' };
    case 'PushEvent':
      return { repository_id: repo.id, push_id: pushId, ref: `refs/heads/${rng.chance(0.7) ? repo.defaultBranch : `fix-${rng.int(1, 99)}`}`, head: rng.hex(40), before: rng.hex(40) };
    case 'CreateEvent': {
      const tag = rng.chance(0.3);
      const ref = tag ? `v1.${rng.int(0, 9)}.${rng.int(0, 9)}` : `feature-${rng.int(1, 400)}`;
      return { ref, ref_type: tag ? 'tag' : 'branch', full_ref: tag ? `refs/tags/${ref}` : `refs/heads/${ref}`, master_branch: repo.defaultBranch, description: repo.description, pusher_type: 'user' };
    }
  }
}

/** The seeded activity events, oldest first, with ascending ids. */
export function seedPlatformEvents(rng: SeededRandom, now: number): PlatformEvent[] {
  const drafts: Array<Omit<PlatformEvent, 'id' | 'payload'> & { repo: Repo }> = [];
  for (const a of ACTIVITY) {
    const repo = REPOS.find((r) => r.id === a.repoId);
    if (!repo) continue;
    const draft = (createdAtMs: number) => {
      const type = rng.pick(['PushEvent', 'PushEvent', 'PushEvent', 'WatchEvent', 'CreateEvent'] as const);
      drafts.push({ type, actor: rng.pick(a.actors), repoId: repo.id, public: !repo.private, createdAtMs, repo });
    };
    // recent ones stay at least an hour inside the 30 days, older ones at least a day outside
    for (let i = 0; i < a.recent; i++) draft(now - 60_000 - Math.floor(rng.next() * (29 * DAY + 22 * 3600_000)));
    for (let i = 0; i < a.older; i++) draft(now - 31 * DAY - Math.floor(rng.next() * 59 * DAY));
  }
  drafts.sort((x, y) => x.createdAtMs - y.createdAtMs);
  let pushId = 17_300_000_001;
  return drafts.map(({ repo, ...d }, i) => ({ ...d, id: FIRST_EVENT_ID + i * 3, payload: payloadFor(rng, d.type, repo, (pushId += 7)) }));
}

interface IssuePlan {
  repoId: number;
  number: number;
  title: string;
  author: string;
  pullRequest?: boolean;
  deleted?: boolean;
  /** Days before now it was opened. */
  age: number;
  /** Its events in order: `event[:detail]` (label name, assignee login, milestone, `commit`, `app`). */
  events: string[];
  locked?: string;
}

const PLANS: readonly IssuePlan[] = [
  { repoId: 3001, number: 1, title: 'Crash when the config file is empty', author: 'eli-tests', age: 50, events: ['labeled:bug', 'assigned:bruno-ops', 'closed:commit'] },
  { repoId: 3001, number: 2, title: 'Add dark mode', author: 'dana-builds', age: 45, events: ['labeled:enhancement', 'milestoned:v1.1', 'subscribed'] },
  { repoId: 3001, number: 3, title: 'Widget leaks file handles on reload', author: 'chen-writes', age: 20, events: ['labeled:bug', 'assigned:chen-writes', 'milestoned:v1.0', 'referenced:commit', 'closed:app'] },
  { repoId: 3001, number: 4, title: 'Fix file handle leak on reload', author: 'chen-writes', pullRequest: true, age: 12, events: ['labeled:bug', 'referenced:commit', 'merged:commit', 'closed'] },
  { repoId: 3001, number: 5, title: 'Cheap watches, click here', author: 'eli-tests', deleted: true, age: 9, events: ['labeled:invalid', 'closed'] },
  { repoId: 3001, number: 6, title: 'Docs: explain the retry policy', author: 'alice-dev', age: 30, events: ['labeled:documentation', 'labeled:good first issue', 'unlabeled:good first issue', 'assigned:alice-dev'] },
  { repoId: 3001, number: 7, title: 'Support Windows paths', author: 'eli-tests', age: 25, events: ['mentioned', 'subscribed', 'labeled:enhancement'] },
  { repoId: 3001, number: 8, title: 'Add a dark mode toggle', author: 'dana-builds', pullRequest: true, age: 8, events: ['labeled:enhancement', 'assigned:dana-builds', 'milestoned:v1.1'] },
  { repoId: 3001, number: 9, title: 'Flaky test in CI', author: 'bruno-ops', age: 35, events: ['closed', 'locked'], locked: 'resolved' },
  { repoId: 3001, number: 10, title: 'Crash on empty config again', author: 'eli-tests', age: 15, events: ['labeled:bug', 'closed', 'reopened'] },
  { repoId: 3001, number: 11, title: 'Bump dependencies', author: 'bruno-ops', pullRequest: true, age: 5, events: ['closed:app'] },
  { repoId: 3001, number: 12, title: 'Roadmap for 2026', author: 'alice-dev', age: 60, events: ['milestoned:v1.0', 'pinned'] },
  { repoId: 3005, number: 1, title: 'Beacon misses heartbeats under load', author: 'dana-builds', age: 18, events: ['labeled:bug', 'assigned:dana-builds', 'closed:commit'] },
  { repoId: 3005, number: 2, title: 'Expose a health endpoint', author: 'alice-dev', age: 10, events: ['labeled:enhancement'] },
];

/** The seeded issues (with ids) and their events (ascending ids by time). */
export function seedIssues(rng: SeededRandom, now: number): { issues: Issue[]; events: IssueEvent[] } {
  const issues: Issue[] = [];
  const drafts: Array<Omit<IssueEvent, 'id'>> = [];
  PLANS.forEach((p, i) => {
    const created = now - p.age * DAY;
    const step = Math.floor((p.age * DAY) / (p.events.length + 2));
    const labels = new Set<string>();
    const assignees = new Set<string>();
    let state: Issue['state'] = 'open';
    let stateReason: Issue['stateReason'] = null;
    let closedAtMs: number | null = null;
    let milestone: number | null = null;
    let updated = created;
    p.events.forEach((spec, j) => {
      const [event = spec, detail] = spec.split(':');
      const at = created + (j + 1) * step;
      updated = at;
      const label = event.endsWith('labeled') && detail ? LABELS.find((l) => l.name === detail) : undefined;
      if (event === 'labeled' && detail) labels.add(detail);
      if (event === 'unlabeled' && detail) labels.delete(detail);
      if (event === 'assigned' && detail) assignees.add(detail);
      if (event === 'milestoned') milestone = detail === 'v1.1' ? 2 : 1;
      if (event === 'closed') [state, stateReason, closedAtMs] = ['closed', p.title.startsWith('Flaky') ? 'not_planned' : 'completed', at];
      if (event === 'reopened') [state, stateReason, closedAtMs] = ['open', 'reopened', null];
      drafts.push({
        issueId: 5001 + i,
        actor: detail && event === 'assigned' ? 'alice-dev' : p.author === 'eli-tests' ? 'bruno-ops' : p.author,
        event,
        commitId: rng.hex(40),
        ...(label ? { label: { name: label.name, color: label.color } } : {}),
        ...(event === 'assigned' && detail ? { assignee: detail } : {}),
        viaApp: detail === 'app' ? 'ship-it' : null,
        createdAtMs: at,
      });
    });
    issues.push({
      id: 5001 + i,
      repoId: p.repoId,
      number: p.number,
      title: p.title,
      body: `${p.title}.\n\nSeen on ${rng.pick(['Linux', 'macOS', 'Windows'])} with version 1.${rng.int(0, 9)}.`,
      state,
      stateReason,
      author: p.author,
      labels: [...labels],
      assignees: [...assignees],
      milestone,
      locked: p.locked !== undefined,
      activeLockReason: p.locked ?? null,
      comments: rng.int(0, 14),
      pullRequest: p.pullRequest ?? false,
      authorAssociation: p.author === 'eli-tests' ? 'CONTRIBUTOR' : 'MEMBER',
      createdAtMs: created,
      updatedAtMs: updated,
      closedAtMs,
      deleted: p.deleted ?? false,
    });
  });
  drafts.sort((a, b) => a.createdAtMs - b.createdAtMs);
  return { issues, events: drafts.map((d, i) => ({ ...d, id: FIRST_ISSUE_EVENT_ID + i * 11 })) };
}
