import { ALERT_TYPES, PRIORITIES, type AlertType, type MonitorEvent, type MonitorRef, type Priority } from './monitor-event.js';
import type { MonitorIdSequence } from './monitor-ids.js';
import type { SeededRandom } from '../../../src/engine/seeded-random.js';

/** Hosts of the seeded infrastructure and their tags (G: "tags of the host also apply to the event"). */
export const HOST_TAGS: Readonly<Record<string, readonly string[]>> = {
  'web-01': ['role:web', 'env:prod'],
  'web-02': ['role:web', 'env:prod'],
  'web-03': ['role:web', 'env:prod'],
  'db-01': ['role:db', 'env:prod'],
  'db-02': ['role:db', 'env:prod'],
  'cache-01': ['role:cache', 'env:prod'],
  'worker-01': ['role:worker', 'env:prod'],
  'worker-02': ['role:worker', 'env:staging'],
  'ci-runner-01': ['role:ci', 'env:staging'],
};
const HOSTS = Object.keys(HOST_TAGS);
/** The host and tag the cases name (mon_host, mon_host_tag): a profile names one of its own. */
export const SEEDED_TAGGED_HOST = { host: 'web-01', tag: 'role:web' } as const;
const SERVICES = ['checkout-api', 'catalog-api', 'auth-service', 'payments-api', 'search-api', 'web-store'];
const JOBS = ['checkout-api-deploy', 'catalog-nightly', 'web-store-release', 'infra-terraform'];

/** The tags an event carries once its host's tags apply, without repeats. */
export function withHostTags(tags: readonly string[], host: string | undefined): string[] {
  return [...new Set([...tags, ...(host ? (HOST_TAGS[host] ?? []) : [])])];
}

interface Draft {
  title: string;
  text: string;
  alertType: AlertType;
  priority: Priority;
  sourceTypeName: string;
  tags: string[];
  host: string;
  deviceName?: string;
  service?: string;
  monitor?: MonitorRef;
  durationNs?: number;
}

const MONITORS: ReadonlyArray<Omit<MonitorRef, 'createdAtNs' | 'modifiedMs' | 'groups' | 'groupStatus'>> = [
  { id: 48_213_577, name: 'High CPU on {{host.name}}', query: 'avg(last_5m):avg:system.cpu.user{role:web} by {host} > 90', type: 'metric alert', message: 'CPU above 90% @ops-oncall', tags: ['team:ops'] },
  { id: 48_213_602, name: 'Disk almost full on {{host.name}}', query: 'max(last_10m):max:system.disk.in_use{*} by {host,device} > 0.9', type: 'metric alert', message: 'Free some disk @ops-oncall', tags: ['team:ops'] },
  { id: 48_214_110, name: 'checkout-api error rate', query: 'sum(last_5m):sum:trace.http.request.errors{service:checkout-api}.as_count() > 50', type: 'query alert', message: 'Errors on checkout @payments-team', tags: ['team:payments', 'service:checkout-api'] },
];

function monitorDraft(rng: SeededRandom, now: number, host: string): Draft {
  const m = rng.pick(MONITORS);
  const recovered = rng.chance(0.35);
  const alertType: AlertType = recovered ? 'success' : rng.pick(['error', 'warning'] as const);
  const name = m.name.replace('{{host.name}}', host);
  const state = recovered ? 'Recovered' : alertType === 'error' ? 'Triggered' : 'Warn';
  const service = m.tags.find((t) => t.startsWith('service:'))?.slice('service:'.length);
  return {
    title: `[${state}] ${name}`,
    text: `%%% \n${m.message}\n\nThe monitor \`${m.query}\` is now ${state.toLowerCase()} for host:${host}.\n %%%`,
    alertType,
    priority: alertType === 'warning' && rng.chance(0.5) ? 'low' : 'normal',
    sourceTypeName: 'monitor',
    tags: ['monitor', ...m.tags],
    host,
    ...(m.id === 48_213_602 ? { deviceName: '/dev/nvme0n1p1' } : {}),
    ...(service ? { service } : {}),
    monitor: { ...m, name, groups: [`host:${host}`], groupStatus: recovered ? 0 : alertType === 'error' ? 2 : 1, createdAtNs: BigInt(now - 90 * 86_400_000) * 1_000_000n, modifiedMs: now - 7 * 86_400_000 },
    ...(recovered ? { durationNs: rng.int(60, 3600) * 1_000_000_000 } : {}),
  };
}

function otherDraft(rng: SeededRandom, host: string): Draft {
  switch (rng.int(0, 5)) {
    case 0: {
      const status = rng.pick(['OK', 'WARNING', 'CRITICAL'] as const);
      return {
        title: `${host} check_disk ${status}`,
        text: `DISK ${status} - free space: / ${rng.int(2, 60)}% (inode=${rng.int(40, 99)}%)`,
        alertType: status === 'OK' ? 'success' : status === 'WARNING' ? 'warning' : 'error',
        priority: status === 'OK' ? 'low' : 'normal',
        sourceTypeName: 'nagios',
        tags: ['check:disk'],
        host,
        deviceName: '/dev/sda1',
      };
    }
    case 1: {
      const job = rng.pick(JOBS);
      const ok = rng.chance(0.75);
      return {
        title: `Build #${rng.int(100, 999)} of ${job} ${ok ? 'succeeded' : 'failed'}`,
        text: ok ? `All stages passed in ${rng.int(2, 40)} minutes.` : `Stage "test" failed: ${rng.int(1, 12)} failing tests.`,
        alertType: ok ? 'success' : 'error',
        priority: ok ? 'low' : 'normal',
        sourceTypeName: 'jenkins',
        tags: ['ci', `job:${job}`],
        host: 'ci-runner-01',
      };
    }
    case 2: {
      const service = rng.pick(SERVICES);
      return rng.chance(0.5)
        ? { title: `Back-off restarting failed container ${service}`, text: `Pod ${service}-${rng.hex(5)} restarted ${rng.int(2, 9)} times`, alertType: 'warning', priority: 'normal', sourceTypeName: 'kubernetes', tags: ['kube_namespace:shop', `service:${service}`], host, service }
        : { title: `Scaled deployment ${service} to ${rng.int(2, 12)} replicas`, text: 'Horizontal pod autoscaler changed the replica count.', alertType: 'info', priority: 'low', sourceTypeName: 'kubernetes', tags: ['kube_namespace:shop', `service:${service}`], host, service };
    }
    case 3:
      return { title: `Chef run completed on ${host}`, text: `Chef client updated ${rng.int(0, 14)} resources.`, alertType: rng.pick(['success', 'user_update'] as const), priority: 'low', sourceTypeName: 'chef', tags: ['config-management'], host };
    case 4:
      return rng.chance(0.5)
        ? { title: `Rightsize ${host}`, text: `${host} used under 10% CPU for 14 days; a smaller instance type would do.`, alertType: 'recommendation', priority: 'low', sourceTypeName: 'my apps', tags: ['cost'], host }
        : { title: 'Graph snapshot shared', text: '%%% \nSnapshot of `system.load.1` shared in #ops\n %%%', alertType: 'snapshot', priority: 'low', sourceTypeName: 'my apps', tags: ['snapshot'], host };
    default: {
      const service = rng.pick(SERVICES);
      return { title: `Deployed ${service} v1.${rng.int(0, 30)}.${rng.int(0, 9)}`, text: `Deployment of ${service} finished by ci.`, alertType: 'info', priority: 'normal', sourceTypeName: 'deployments', tags: ['deploy', `service:${service}`], host, service };
    }
  }
}

function toEvent(d: Draft, id: bigint, timestampMs: number): MonitorEvent {
  return {
    id,
    title: d.title,
    text: d.text,
    timestampMs,
    alertType: d.alertType,
    priority: d.priority,
    sourceTypeName: d.sourceTypeName,
    tags: withHostTags(d.tags, d.host),
    host: d.host,
    ...(d.deviceName ? { deviceName: d.deviceName } : {}),
    ...(d.service ? { service: d.service } : {}),
    ...(d.monitor ? { monitor: d.monitor } : {}),
    ...(d.durationNs !== undefined ? { durationNs: d.durationNs } : {}),
    isAggregate: false,
    payload: '{}',
  };
}

/** How many events a seed puts where: the recent ones, the older ones, and aggregation groups. */
export interface MonitorSeedCounts {
  recent: number;
  older: number;
  groups: number;
}

/** How many events the seed puts where (see {@link seedMonitorEvents}). */
export const MONITOR_SEED = {
  /** Events in the last 18 hours: more than the 1000 GET /api/v1/events returns at once. */
  recent: 1200,
  /** Events between 18 hours and 7 days old. */
  older: 200,
  /** Aggregation groups (each an aggregate parent and 3 to 5 members). */
  groups: 12,
} as const satisfies MonitorSeedCounts;

/**
 * A realistic stream: monitor alerts and recoveries, nagios checks, CI builds, kubernetes,
 * configuration runs, deployments, recommendations and snapshots, on a handful of hosts;
 * every alert type and priority; aggregation groups whose parent lies up to an hour before
 * its members. Ids ascend with time. Deterministic for a seed, `now` and `counts` (default
 * {@link MONITOR_SEED}; larger counts make stores to measure paging on).
 */
export function seedMonitorEvents(rng: SeededRandom, ids: MonitorIdSequence, now: number, counts: MonitorSeedCounts = MONITOR_SEED): MonitorEvent[] {
  const drafts: Array<{ at: number; d: Draft; key?: string; parentOf?: string }> = [];
  const hour = 3600_000;
  for (let i = 0; i < counts.recent; i++) {
    const host = rng.pick(HOSTS);
    const d = rng.chance(0.3) ? monitorDraft(rng, now, host) : otherDraft(rng, host);
    drafts.push({ at: now - 5_000 - Math.floor(rng.next() * (18 * hour - 60_000)), d });
  }
  for (let i = 0; i < counts.older; i++) {
    const host = rng.pick(HOSTS);
    drafts.push({ at: now - 18 * hour - Math.floor(rng.next() * 150 * hour), d: otherDraft(rng, host) });
  }
  // every alert type and priority appears within the last hour, whatever the draws gave
  ALERT_TYPES.forEach((alertType, i) => {
    const host = HOSTS[i % HOSTS.length] ?? 'web-01';
    drafts.push({ at: now - 60_000 * (i + 2), d: { ...otherDraft(rng, host), alertType, priority: PRIORITIES[i % 2] ?? 'normal' } });
  });
  for (let g = 0; g < counts.groups; g++) {
    const service = SERVICES[g % SERVICES.length] ?? 'checkout-api';
    const key = `deploy-${service}-${g}`;
    const start = now - (1 + g) * hour - rng.int(0, 30) * 60_000;
    const members = rng.int(3, 5);
    const title = `Deploying ${service} build ${rng.int(1000, 9999)}`;
    drafts.push({ at: start, key, parentOf: key, d: { title, text: `Rollout of ${service} started.`, alertType: 'info', priority: 'normal', sourceTypeName: 'deployments', tags: ['deploy', `service:${service}`], host: 'worker-01', service } });
    for (let m = 0; m < members; m++) {
      const alertType: AlertType = m === members - 1 ? 'success' : 'info';
      drafts.push({ at: start + (m + 1) * rng.int(8, 14) * 60_000, key, d: { title: `${title}: step ${m + 1} of ${members}`, text: `Rolled ${service} out to batch ${m + 1}.`, alertType, priority: 'normal', sourceTypeName: 'deployments', tags: ['deploy', `service:${service}`], host: rng.pick(HOSTS), service } });
    }
  }
  drafts.sort((a, b) => a.at - b.at);
  const events = drafts.map(({ d, at, key, parentOf }) => ({ ...toEvent(d, ids.next(), at), ...(key ? { aggregationKey: key } : {}), isAggregate: parentOf !== undefined }));
  const parents = new Map(events.filter((e) => e.isAggregate && e.aggregationKey).map((e) => [e.aggregationKey, e.id]));
  return events.map((e) => {
    const parent = !e.isAggregate && e.aggregationKey ? parents.get(e.aggregationKey) : undefined;
    return parent === undefined ? e : { ...e, relatedEventId: parent };
  });
}
