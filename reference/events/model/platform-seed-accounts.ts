import type { Account, Label, Milestone, PlatformApp, Repo } from './platform-types.js';

/** The seeded names the cases use (see the reference target's variables). */
export const SEEDED_PLATFORM = {
  owner: 'acme-tools',
  repo: 'widget',
  org: 'acme-tools',
  username: 'alice-dev',
  issueNumber: 3,
  /** An issue of owner/repo that was deleted: its events answer 410. */
  deletedIssueNumber: 5,
  /** The repository's name before a rename: its network events answer 301. */
  renamedRepo: 'old-widget',
  /** A private repository of the organization, visible to the token's user only. */
  privateRepo: 'vault',
  /** The bearer token of {@link SEEDED_PLATFORM.username}. */
  token: 'plt_7Yq2c9Lm4Rk8Vw1Zt6Hb3Nd5Jx0Fs2Ge',
} as const;

export const ACCOUNTS: readonly Account[] = [
  { id: 1001, login: 'alice-dev', kind: 'User', siteAdmin: false },
  { id: 1002, login: 'bruno-ops', kind: 'User', siteAdmin: false },
  { id: 1003, login: 'chen-writes', kind: 'User', siteAdmin: false },
  { id: 1004, login: 'dana-builds', kind: 'User', siteAdmin: false },
  { id: 1005, login: 'eli-tests', kind: 'User', siteAdmin: false },
  { id: 1006, login: 'site-keeper', kind: 'User', siteAdmin: true },
  { id: 2001, login: 'acme-tools', kind: 'Organization', siteAdmin: false },
  { id: 2002, login: 'lumen-labs', kind: 'Organization', siteAdmin: false },
];

export const MEMBERS: Readonly<Record<string, readonly string[]>> = {
  'acme-tools': ['alice-dev', 'bruno-ops', 'chen-writes'],
  'lumen-labs': ['dana-builds', 'alice-dev'],
};

/** Whom each user follows, and which repositories each watches (received events come from these). */
export const FOLLOWS: Readonly<Record<string, readonly string[]>> = {
  'alice-dev': ['bruno-ops', 'dana-builds'],
  'bruno-ops': ['alice-dev'],
  'eli-tests': ['chen-writes'],
};
export const WATCHES: Readonly<Record<string, readonly number[]>> = {
  'alice-dev': [3001, 3005],
  'bruno-ops': [3003],
  'dana-builds': [3005],
};

export const REPOS: readonly Repo[] = [
  { id: 3001, owner: 'acme-tools', name: 'widget', private: false, networkId: 3001, formerNames: ['acme-tools/old-widget'], description: 'Widgets for every dashboard', defaultBranch: 'main' },
  { id: 3002, owner: 'bruno-ops', name: 'widget', private: false, networkId: 3001, formerNames: [], description: 'Fork of acme-tools/widget', defaultBranch: 'main' },
  { id: 3003, owner: 'acme-tools', name: 'gadget', private: false, networkId: 3003, formerNames: [], description: 'Gadget command-line tool', defaultBranch: 'main' },
  { id: 3004, owner: 'acme-tools', name: 'vault', private: true, networkId: 3004, formerNames: [], description: 'Internal secrets tooling', defaultBranch: 'main' },
  { id: 3005, owner: 'lumen-labs', name: 'beacon', private: false, networkId: 3005, formerNames: [], description: 'Status beacon service', defaultBranch: 'trunk' },
  { id: 3006, owner: 'alice-dev', name: 'dotfiles', private: false, networkId: 3006, formerNames: [], description: null, defaultBranch: 'main' },
];

/** The labels every seeded repository has. */
export const LABELS: readonly Label[] = [
  { id: 6001, name: 'bug', description: "Something isn't working", color: 'd73a4a', default: true },
  { id: 6002, name: 'enhancement', description: 'New feature or request', color: 'a2eeef', default: true },
  { id: 6003, name: 'documentation', description: 'Improvements or additions to documentation', color: '0075ca', default: true },
  { id: 6004, name: 'good first issue', description: 'Good for newcomers', color: '7057ff', default: true },
  { id: 6005, name: 'invalid', description: "This doesn't seem right", color: 'e4e669', default: true },
];

export function seededMilestones(now: number): Milestone[] {
  const day = 86_400_000;
  return [
    { id: 7001, number: 1, title: 'v1.0', description: 'First stable release', state: 'open', creator: 'alice-dev', createdAtMs: now - 70 * day, dueOnMs: now + 20 * day },
    { id: 7002, number: 2, title: 'v1.1', description: 'Dark mode and polish', state: 'open', creator: 'bruno-ops', createdAtMs: now - 40 * day, dueOnMs: now + 60 * day },
  ];
}

export function seededApps(now: number): PlatformApp[] {
  return [
    {
      id: 9001,
      slug: 'ship-it',
      name: 'Ship It',
      owner: 'acme-tools',
      description: 'Closes issues when a fix ships',
      externalUrl: 'https://ship-it.example',
      createdAtMs: now - 400 * 86_400_000,
      updatedAtMs: now - 30 * 86_400_000,
      permissions: { metadata: 'read', contents: 'read', issues: 'write', single_file: 'read' },
      events: ['push', 'issues', 'pull_request'],
    },
  ];
}
