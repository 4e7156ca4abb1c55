/** The merchant catalog service of spec 001 part D: pure in-memory state and its rules. */
export * from './account-settings.js';
export * from './accounts.js';
export * from './catalog.js';
export * from './conversion-sources.js';
export * from './csses.js';
export * from './datafeeds.js';
export * from './delivery-times.js';
export * from './ids.js';
export * from './json.js';
export * from './labels.js';
export * from './outcome.js';
export * from './products.js';
export * from './programs.js';
export * from './records.js';
export * from './shop.js';
