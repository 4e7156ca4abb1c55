/** The prefix groups of the IP ranges object, in the spec's order (G, "IP ranges"). */
export const IP_RANGE_GROUPS = ['agents', 'api', 'apm', 'global', 'logs', 'orchestrator', 'process', 'remote-configuration', 'synthetics', 'synthetics-private-locations', 'webhooks'] as const;

export interface PrefixGroup {
  prefixes_ipv4: string[];
  prefixes_ipv6: string[];
  prefixes_ipv4_by_location?: Record<string, string[]>;
  prefixes_ipv6_by_location?: Record<string, string[]>;
}

export type IpRanges = { modified: string; version: number } & Record<(typeof IP_RANGE_GROUPS)[number], PrefixGroup>;

const pad = (n: number): string => String(n).padStart(2, '0');

/** `YYYY-MM-DD-hh-mm-ss` in UTC, the form of `modified`. */
export function rangesTimestamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}-${pad(d.getUTCHours())}-${pad(d.getUTCMinutes())}-${pad(d.getUTCSeconds())}`;
}

/**
 * The published IP ranges, as of three days before `now`. Prefixes come from the ranges set
 * aside for documentation (RFC 5737, RFC 3849), so nothing points at a real network; every
 * group has its own. `synthetics` also lists them by location.
 */
export function ipRanges(now: number): IpRanges {
  const group = (i: number): PrefixGroup => ({
    prefixes_ipv4: [`192.0.2.${i * 8}/29`, `198.51.100.${i * 16}/28`],
    prefixes_ipv6: [`2001:db8:${(i + 1).toString(16)}::/48`],
  });
  const groups = Object.fromEntries(IP_RANGE_GROUPS.map((name, i) => [name, group(i)])) as Record<(typeof IP_RANGE_GROUPS)[number], PrefixGroup>;
  groups.synthetics = {
    prefixes_ipv4: ['203.0.113.0/28', '203.0.113.16/28', '203.0.113.32/28'],
    prefixes_ipv6: ['2001:db8:5e::/48', '2001:db8:5f::/48'],
    prefixes_ipv4_by_location: { 'aws:us-east-1': ['203.0.113.0/28'], 'aws:eu-west-1': ['203.0.113.16/28'], 'gcp:asia-northeast1': ['203.0.113.32/28'] },
    prefixes_ipv6_by_location: { 'aws:us-east-1': ['2001:db8:5e::/48'], 'aws:eu-west-1': ['2001:db8:5f::/48'], 'gcp:asia-northeast1': [] },
  };
  return { modified: rangesTimestamp(now - 3 * 86_400_000), version: 67, ...groups };
}
