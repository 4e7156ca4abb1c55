/** The collation reference store of spec 001 part F. */
export { createStore, type Store, type StoreOptions } from './store.js';
export { STORE_FAULTS, STORE_FAULT_NAMES, isStoreFaultName, type StoreFaultName, type StoreFaults } from './faults.js';
export { CODES } from './refusal.js';
