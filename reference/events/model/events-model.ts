import type { Clock } from '../../../src/engine/clock.js';
import { ipRanges, type IpRanges } from './ip-ranges.js';
import type { MonitorEvent } from './monitor-event.js';
import type { MonitorEventDraft } from './monitor-post.js';
import type { MonitorSeedCounts } from './monitor-seed.js';
import { MonitorStore } from './monitor-store.js';
import type { Outcome } from './outcome.js';
import { PlatformStore, type NewPlatformEvent } from './platform-store.js';
import type { PlatformEvent } from './platform-types.js';

export interface EventsModelOptions {
  clock: Clock;
  /** Seed of the generated streams (default 2002). */
  seed?: number;
  /** How many monitoring events the generated stream has (default MONITOR_SEED). */
  monitorSeed?: MonitorSeedCounts;
}

/**
 * Everything the events suite's reference serves (spec 002 parts G and H), on one clock: the
 * monitoring event stream, the platform, and the fixed data (dependency maps, IP ranges). The
 * IP ranges are dated when the model is made.
 */
export class EventsModel {
  readonly clock: Clock;
  readonly monitor: MonitorStore;
  readonly platform: PlatformStore;
  readonly ipRanges: IpRanges;

  constructor(opts: EventsModelOptions) {
    this.clock = opts.clock;
    this.monitor = new MonitorStore({ clock: opts.clock, ...(opts.seed !== undefined ? { seed: opts.seed } : {}), ...(opts.monitorSeed ? { seedCounts: opts.monitorSeed } : {}) });
    this.platform = new PlatformStore({ clock: opts.clock, ...(opts.seed !== undefined ? { seed: opts.seed } : {}) });
    this.ipRanges = ipRanges(opts.clock.now());
  }

  /** A new monitoring event, happening now unless the draft says when. */
  addMonitorEvent(draft: Partial<MonitorEventDraft> & Pick<MonitorEventDraft, 'title' | 'text'>): MonitorEvent {
    return this.monitor.addMonitorEvent(draft);
  }

  /** A new platform activity event on a repository, happening now. */
  addPlatformEvent(spec: NewPlatformEvent): Outcome<PlatformEvent> {
    return this.platform.addPlatformEvent(spec);
  }
}
