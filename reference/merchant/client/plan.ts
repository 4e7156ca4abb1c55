import { accountCalls } from './calls-accounts.js';
import { listingCalls } from './calls-listings.js';
import { productCalls } from './calls-products.js';
import { returnCalls } from './calls-returns.js';
import { settingsCalls } from './calls-settings.js';
import type { Call } from './calls.js';

/**
 * What the reference client does: every operation of spec 001 part D once, family by family.
 * Within a family, what is created comes first and is deleted last, so every call names
 * something that exists and uses the IDs the service answered.
 */
export const REFERENCE_CALLS: readonly Call[] = [...accountCalls, ...listingCalls, ...settingsCalls, ...productCalls, ...returnCalls];
