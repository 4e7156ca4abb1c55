import { describe, expect, it } from 'vitest';
import { EventBus, type EngineEvent } from '../../src/engine/events.js';
import { SuiteChannels } from '../../src/engine/suite-channels.js';

const log = (suite: string, message: string): EngineEvent => ({ type: 'log', level: 'info', message: `${suite}:${message}` });
const messages = (events: EngineEvent[]): string[] => events.map((e) => (e.type === 'log' ? e.message : e.type));

describe('SuiteChannels', () => {
  it('passes the first suite at once and holds a later one until every earlier suite is done', () => {
    const bus = new EventBus();
    const seen: EngineEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    const channels = new SuiteChannels(bus, 3);
    const [a, b, c] = [channels.channel(0), channels.channel(1), channels.channel(2)];
    c.emit(log('c', '1'));
    a.emit(log('a', '1'));
    b.emit(log('b', '1'));
    c.emit(log('c', '2'));
    expect(messages(seen)).toEqual(['a:1']);
    // the third suite ends before the second: it still waits for it
    channels.close(2);
    expect(messages(seen)).toEqual(['a:1']);
    a.emit(log('a', '2'));
    channels.close(0);
    expect(messages(seen)).toEqual(['a:1', 'a:2', 'b:1']);
    // the second is now the head: its events pass at once, then the third's held ones follow it
    b.emit(log('b', '2'));
    expect(messages(seen)).toEqual(['a:1', 'a:2', 'b:1', 'b:2']);
    channels.close(1);
    expect(messages(seen)).toEqual(['a:1', 'a:2', 'b:1', 'b:2', 'c:1', 'c:2']);
  });

  it('builds channels that do not listen when the run has no sink', () => {
    const channels = new SuiteChannels(new EventBus(), 1);
    expect(channels.channel(0).listening).toBe(false);
  });
});
