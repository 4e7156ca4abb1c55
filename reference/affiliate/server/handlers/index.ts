import type { Handler } from '../answers.js';
import { autologin, conversions, income, leads, offers, postbacks } from './lists.js';
import { registerLead } from './register.js';

/** Every operation of the affiliate API by its ID (a test keeps this and routes.ts equal). */
export const AFFILIATE_HANDLERS: Readonly<Record<string, Handler>> = { registerLead, autologin, offers, leads, conversions, income, postbacks };
