import { integrationMain } from './run.js';

/**
 * The reference affiliate integration (spec 001 part E, client side): the embedded default
 * target of the affiliate suite's integration cases. Started with the launch contract's
 * variables (README.md); serves /signup and /autologin on 127.0.0.1:$PORT until stopped.
 */
integrationMain();
