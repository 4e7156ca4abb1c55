import { SpecgateError } from '../../../src/errors.js';
import type { UserAgentDriver } from '../../../src/targets/types.js';
import { dateHappened, PRIORITIES, ALERT_TYPES } from '../model/monitor-event.js';
import type { EventsModel } from '../model/events-model.js';
import { SEEDED_PLATFORM } from '../model/platform-seed-accounts.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);

/**
 * The reference's user agent: makes things happen that a person or another system would
 * cause, so "nothing new answers 304, something new answers 200" can be judged both ways.
 *
 * Action `new-event` with `{stream: 'platform' | 'issue' | 'monitor'}` (`kind` is taken as a synonym):
 * - platform, `{owner?, repo?, actor?, receiver?}` (default the seeded repository): a WatchEvent
 *   on that repository, now, by `actor` (empty: a user of the platform's choosing). With
 *   `receiver`, the event is one that user receives: by someone else, on that repository when
 *   the receiver watches it, else on a repository the receiver watches. Answers
 *   `{stream, id, type, repo, created_at}`.
 * - issue, `{owner?, repo?, issue_number}`: a new event of that issue, now (it shows in the
 *   issue's events and the repository's issue events). Answers `{stream, id, event, created_at}`.
 * - monitor, `{title?, text?, tags?, priority?, alert_type?, host?}`: an event of the monitoring
 *   stream, now. Answers `{stream, id, id_str, date_happened}` (id as decimal text: exact).
 */
export class EventsUserAgent implements UserAgentDriver {
  readonly kind = 'reference-events';

  constructor(private readonly model: EventsModel) {}

  async perform(action: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (action !== 'new-event') throw new SpecgateError('SG_CONFIG', `the reference events user agent has no action "${action}"; it knows new-event`);
    const stream = str(params['stream']) ?? str(params['kind']);
    if (stream === 'platform') return this.platformEvent(params);
    if (stream === 'issue') return this.issueEvent(params);
    if (stream === 'monitor') return this.monitorEvent(params);
    throw new SpecgateError('SG_CONFIG', `new-event needs stream: platform, issue or monitor (got ${JSON.stringify(stream ?? null)})`);
  }

  private platformEvent(params: Record<string, unknown>): Record<string, unknown> {
    const receiver = str(params['receiver']);
    const where = receiver ? this.model.platform.receivedAt(receiver, str(params['owner']) ?? SEEDED_PLATFORM.owner, str(params['repo']) ?? SEEDED_PLATFORM.repo) : undefined;
    const owner = where?.owner ?? str(params['owner']) ?? SEEDED_PLATFORM.owner;
    const repo = where?.repo ?? str(params['repo']) ?? SEEDED_PLATFORM.repo;
    const actor = str(params['actor']) ?? where?.actor;
    const added = this.model.addPlatformEvent({ owner, repo, ...(actor ? { actor } : {}) });
    if (!added.ok) throw new SpecgateError('SG_CONFIG', `new-event: ${added.messages.join('; ')}`);
    const e = added.value;
    return { stream: 'platform', id: String(e.id), type: e.type, repo: `${owner}/${repo}`, created_at: new Date(e.createdAtMs).toISOString() };
  }

  private issueEvent(params: Record<string, unknown>): Record<string, unknown> {
    const owner = str(params['owner']) ?? SEEDED_PLATFORM.owner;
    const repo = str(params['repo']) ?? SEEDED_PLATFORM.repo;
    const number = Number(str(params['issue_number']) ?? SEEDED_PLATFORM.issueNumber);
    const added = this.model.platform.addIssueEvent(owner, repo, number, 'mentioned');
    if (!added.ok) throw new SpecgateError('SG_CONFIG', `new-event: ${added.messages.join('; ')}`);
    const e = added.value;
    return { stream: 'issue', id: String(e.id), event: e.event, created_at: new Date(e.createdAtMs).toISOString() };
  }

  private monitorEvent(params: Record<string, unknown>): Record<string, unknown> {
    const tags = Array.isArray(params['tags']) ? params['tags'].filter((t): t is string => typeof t === 'string') : ['source:agent'];
    const priority = PRIORITIES.find((p) => p === params['priority']);
    const alertType = ALERT_TYPES.find((a) => a === params['alert_type']);
    const host = str(params['host']);
    const e = this.model.addMonitorEvent({
      title: str(params['title']) ?? 'Feature flag checkout-v2 enabled',
      text: str(params['text']) ?? 'The flag was turned on for 10% of traffic.',
      tags,
      ...(priority ? { priority } : {}),
      ...(alertType ? { alertType } : {}),
      ...(host ? { host } : {}),
    });
    return { stream: 'monitor', id: e.id.toString(), id_str: e.id.toString(), date_happened: dateHappened(e) };
  }
}
