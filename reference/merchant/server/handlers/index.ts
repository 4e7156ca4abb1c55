import type { Handler } from '../answers.js';
import { ACCOUNT_HANDLERS, ACCOUNT_PART_HANDLERS } from './accounts.js';
import { ACCOUNT_SETTINGS_HANDLERS } from './account-settings.js';
import { BATCH_HANDLERS } from './batches.js';
import { CONTENT_HANDLERS } from './catalog-content.js';
import { POS_HANDLERS, PRODUCT_HANDLERS } from './products.js';
import { PROGRAM_HANDLERS } from './programs.js';
import { RETURN_HANDLERS } from './returns.js';

/** Every operation of suites/merchant/api.yaml by its ID (a test keeps the two equal). */
export const MERCHANT_HANDLERS: Readonly<Record<string, Handler>> = {
  ...ACCOUNT_HANDLERS,
  ...ACCOUNT_PART_HANDLERS,
  ...ACCOUNT_SETTINGS_HANDLERS,
  ...CONTENT_HANDLERS,
  ...PRODUCT_HANDLERS,
  ...POS_HANDLERS,
  ...PROGRAM_HANDLERS,
  ...RETURN_HANDLERS,
  ...BATCH_HANDLERS,
};
