import type { AutologinShape } from '../../../reference/affiliate/model/types.js';

/**
 * What one integration case drives the browser through. A sign-up that the platform answers
 * 200, one it answers 201 (Errors 1: a success too), one it refuses; and the autologin of a
 * seeded lead of each target shape (E2: method POST or GET, parameters as an array or an
 * object), the fragment present for one shape of each method and absent for the other.
 */
export const SIGNUP_SCENARIOS = ['signup-200', 'signup-201', 'signup-refused'] as const;

export const AUTOLOGIN_SCENARIOS: Readonly<Record<string, AutologinShape>> = {
  'autologin-post-array': { method: 'POST', parameters: 'array', fragment: true },
  'autologin-post-object': { method: 'POST', parameters: 'object', fragment: false },
  'autologin-get-array': { method: 'GET', parameters: 'array', fragment: false },
  'autologin-get-object': { method: 'GET', parameters: 'object', fragment: true },
};

export type SignupScenario = (typeof SIGNUP_SCENARIOS)[number];

export const SCENARIOS: readonly string[] = [...SIGNUP_SCENARIOS, ...Object.keys(AUTOLOGIN_SCENARIOS)];

export function isSignup(s: string): s is SignupScenario {
  return (SIGNUP_SCENARIOS as readonly string[]).includes(s);
}

/**
 * The refusal the played platform answers in `signup-refused`: HTML's special characters are
 * in it, so an integration that puts it in its page unescaped does not show it as text.
 */
export const REFUSAL_MESSAGE = 'The e-mail <lead@example.test> is already registered & "taken"';
export const REFUSAL_STATUS = 400;

/** What the browser types into the sign-up form (valid for the platform's E1 rules). */
export const VISITOR: Readonly<Record<string, string>> = {
  email: 'ada.lovelace@example.test',
  firstName: 'Ada',
  lastName: "O'Lovelace",
  password: 'S3cret&pass=word',
  phone: '+441632960123',
};
