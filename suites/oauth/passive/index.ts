import type { PassiveRule } from '../../../src/engine/suite-module.js';
import { apiUser } from './api-user.js';
import { authorizeRedirects } from './authorize-redirects.js';
import { clientRequestsRule } from './client-requests.js';
import { codeExchangesRule } from './code-exchanges.js';
import { deviceCodeAnswers } from './device-code-answers.js';
import { devicePolls } from './device-polls.js';
import { tokenAnswers } from './token-answers.js';

/** The oauth suite's rules over a whole recording (`--target har:`), by name: each a case `passive:<name>`. */
export const OAUTH_PASSIVE_RULES: Readonly<Record<string, PassiveRule>> = {
  'token-answers': tokenAnswers,
  'device-code-answers': deviceCodeAnswers,
  'device-polls': devicePolls,
  'authorize-redirects': authorizeRedirects,
  'code-exchanges': codeExchangesRule,
  'api-user': apiUser,
  'client-requests': clientRequestsRule,
};
