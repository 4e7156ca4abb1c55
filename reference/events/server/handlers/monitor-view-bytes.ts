import type { MonitorEvent } from '../../model/monitor-event.js';
import { jsonText } from '../json-text.js';
import { v1Event, v2Event } from './monitor-views.js';

/**
 * The JSON text of each stored event in each list's view, as UTF-8 bytes, made on first use and
 * kept as long as the event object lives (a page is then copied together from them, see
 * jsonBytesWithList). Safe because the store never changes an event in place: a changed
 * event (an aggregate's member given its parent) is a new object, which gets texts of its own.
 */
const V1_TEXT = new WeakMap<MonitorEvent, Buffer>();
const V2_TEXT = new WeakMap<MonitorEvent, Buffer>();

function kept(texts: WeakMap<MonitorEvent, Buffer>, view: (e: MonitorEvent) => unknown, e: MonitorEvent): Buffer {
  let bytes = texts.get(e);
  if (bytes === undefined) {
    bytes = Buffer.from(jsonText(view(e)), 'utf8');
    texts.set(e, bytes);
  }
  return bytes;
}

/** The UTF-8 bytes of `jsonText(v1Event(e))`, kept. */
export const v1EventBytes = (e: MonitorEvent): Buffer => kept(V1_TEXT, v1Event, e);

/** The UTF-8 bytes of `jsonText(v2Event(e))`, kept. */
export const v2EventBytes = (e: MonitorEvent): Buffer => kept(V2_TEXT, v2Event, e);
