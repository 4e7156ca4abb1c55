import { copy, texts, type Json } from './json.js';
import { Records } from './records.js';

/**
 * Comparison-shopping-service domains (001 D, csses): one seeded group with one domain. A
 * domain's labelIds are set by csses.updatelabels.
 */
export class Csses {
  private readonly records = new Records('cssDomainId');

  constructor(
    readonly groupId: string,
    readonly domainId: string,
  ) {
    this.records.put(domainId, {
      cssGroupId: groupId,
      displayName: 'Reference Comparison',
      fullName: 'Reference Comparison Shopping',
      homepageUri: 'https://compare.example',
      labelIds: [],
    });
  }

  get(groupId: string, domainId: string): Json | undefined {
    const d = this.records.get(domainId);
    return d && d['cssGroupId'] === groupId ? d : undefined;
  }

  /** The domains of a group; undefined for a group that does not exist. */
  list(groupId: string): Json[] | undefined {
    return groupId === this.groupId ? this.records.list().filter((d) => d['cssGroupId'] === groupId) : undefined;
  }

  setLabels(groupId: string, domainId: string, labelIds: string[]): Json | undefined {
    return this.get(groupId, domainId) ? this.records.merge(domainId, { labelIds: copy([...new Set(labelIds)]) }) : undefined;
  }

  dropLabel(labelId: string): void {
    for (const d of this.records.list()) {
      const labels = texts(d['labelIds']);
      if (labels.includes(labelId)) this.records.merge(String(d['cssDomainId']), { labelIds: labels.filter((l) => l !== labelId) });
    }
  }
}
