import { merchantClientMain } from './run.js';

/**
 * The reference client of the merchant catalog API (spec 001 part D): the embedded default
 * target of the merchant suite's client-side cases. Started with the launch contract's
 * variables (README.md); calls every operation once and exits.
 */
merchantClientMain();
