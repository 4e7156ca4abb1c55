import type { Handler } from '../answers.js';
import { MONITOR_HANDLERS } from './monitor.js';
import { PLATFORM_HANDLERS } from './platform.js';

/** Every operation of the events services by its ID (a test keeps this and routes.ts equal). */
export const EVENTS_HANDLERS: Readonly<Record<string, Handler>> = { ...MONITOR_HANDLERS, ...PLATFORM_HANDLERS };
