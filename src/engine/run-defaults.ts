// A module of its own, apart from the runtime: what plans a run without running it (sharding,
// the command line) reads these too.

/** Cases in flight at once, over every suite of the run, when the caller does not say (`--concurrency`). */
export const DEFAULT_CONCURRENCY = 8;
/** Live suites running side by side when the caller does not say. */
export const DEFAULT_SUITES_AT_ONCE = 2;
