import { describePlantedFaults } from './describe-faults.js';

// the first half of the catalog, and the catalog's own tests, are in faults.test.ts
describePlantedFaults(2, 2);
