import type { TypedCheck } from '../../../src/engine/suite-module.js';
import { match, show } from '../../../src/checks/matchers.js';
import { sameTarget } from './redirect-outcome.js';

/**
 * Judges a captured value (typically a user-agent result, which has no `expect:` of its own)
 * with the ordinary matcher vocabulary. Args: `value`, `matches` (a matcher), optional
 * `landsOn` (the value is a URL that must have this URL's origin and path), `requirement`,
 * `message`.
 */
export const expectValue: TypedCheck = async (ctx, args) => {
  const value = args['value'];
  const requirement = typeof args['requirement'] === 'string' ? args['requirement'] : undefined;
  const message = typeof args['message'] === 'string' ? args['message'] : undefined;
  if ('matches' in args) {
    for (const m of match(value, args['matches'])) {
      ctx.fail({ ...(requirement ? { requirement } : {}), message: `${message ?? 'value'}: ${m.path} ${m.message}`, expected: m.expected, actual: m.actual });
    }
  }
  if (typeof args['landsOn'] === 'string') {
    const target = args['landsOn'];
    if (typeof value !== 'string' || !sameTarget(value, target)) {
      ctx.fail({ ...(requirement ? { requirement } : {}), message: `${message ?? 'the browser'} must land on ${target}`, expected: target, actual: show(value) });
    }
  }
};
