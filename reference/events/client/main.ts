import { eventsClientMain } from './run.js';

/**
 * The reference client of the monitoring API and the platform events API (spec 002 parts G
 * and H): the embedded default target of the events suite's client-side cases. Started with
 * the launch contract's variables (README.md); posts, lists, walks and polls, then exits.
 */
eventsClientMain();
