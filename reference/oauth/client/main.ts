import { clientMain } from './run.js';

/**
 * The reference client application of spec 000 part B: the embedded default target of the
 * oauth suite's client-side cases. Started with the launch contract's variables (README.md).
 */
clientMain();
