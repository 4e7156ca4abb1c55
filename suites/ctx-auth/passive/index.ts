import type { PassiveRule } from '../../../src/engine/suite-module.js';
import { clientRequests } from './client-requests.js';
import { codeExchanges } from './code-exchanges.js';
import { metadata } from './metadata.js';
import { registrationAnswers } from './registration-answers.js';
import { resourceChallenge } from './resource-challenge.js';
import { stateEcho } from './state-echo.js';
import { tokenAnswers } from './token-answers.js';

/** The ctx-auth suite's rules over a whole recording (`--target har:`), by name: each a case `passive:<name>`. */
export const CTX_AUTH_PASSIVE_RULES: Readonly<Record<string, PassiveRule>> = {
  metadata,
  'resource-challenge': resourceChallenge,
  'token-answers': tokenAnswers,
  'registration-answers': registrationAnswers,
  'state-echo': stateEcho,
  'code-exchanges': codeExchanges,
  'client-requests': clientRequests,
};
