/** The scenarios of the client side, by the name cases give them (`scenarios: [standard]`): client-scenarios.ts says what each plays. */
export const SCENARIO_NAMES = ['standard', 'custom-paths', 'no-metadata', 'no-registration', 'mid-session-expiry', 'wrong-state'] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];
