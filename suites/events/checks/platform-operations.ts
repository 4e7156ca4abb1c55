import { EVENTS_ROUTES } from '../../../reference/events/server/routes.js';

/** The operations of the platform events API (part H), by ID. */
export const PLATFORM_OPERATIONS: ReadonlySet<string> = new Set(EVENTS_ROUTES.filter((r) => r.area === 'platform').map((r) => r.id));
