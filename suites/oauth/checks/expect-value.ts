import type { TypedCheck } from '../../../src/engine/suite-module.js';
import { match, show } from '../../../src/checks/matchers.js';
import { sameTarget } from './redirect-outcome.js';

/**
 * Judges a captured value (typically a user-agent result, which has no `expect:` of its own)
 * with the ordinary matcher vocabulary. Args: `value`, `matches` (a matcher), optional
 * `landsOn` (the value is a URL that must have this URL's origin and path), optional `mentions`
 * (some string anywhere inside the value must equal it), `ifPresent` (judge only when the value
 * exists: another requirement already fails when it is missing), `requirement`, `message`.
 */
export const expectValue: TypedCheck = async (ctx, args) => {
  const value = args['value'];
  if (args['ifPresent'] === true && (value === undefined || value === null)) return;
  const requirement = typeof args['requirement'] === 'string' ? args['requirement'] : undefined;
  const message = typeof args['message'] === 'string' ? args['message'] : undefined;
  if ('matches' in args) {
    for (const m of match(value, args['matches'])) {
      ctx.fail({ ...(requirement ? { requirement } : {}), message: `${message ?? 'value'}: ${m.path} ${m.message}`, expected: m.expected, actual: m.actual });
    }
  }
  if (typeof args['mentions'] === 'string' && !mentions(value, args['mentions'])) {
    ctx.fail({ ...(requirement ? { requirement } : {}), message: `${message ?? 'value'} must name ${args['mentions']}`, expected: args['mentions'], actual: value });
  }
  if (typeof args['landsOn'] === 'string') {
    const target = args['landsOn'];
    if (typeof value !== 'string' || !sameTarget(value, target)) {
      ctx.fail({ ...(requirement ? { requirement } : {}), message: `${message ?? 'the browser'} must land on ${target}`, expected: target, actual: show(value) });
    }
  }
};

function mentions(value: unknown, text: string): boolean {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value) === text;
  if (Array.isArray(value)) return value.some((v) => mentions(v, text));
  if (value && typeof value === 'object') return Object.values(value).some((v) => mentions(v, text));
  return false;
}

/**
 * A precondition: when `value` does not match, the case cannot judge its requirements and
 * ends as errored with `because` (never a pass by default, never a conformance failure).
 * Args: `value`, `matches`, `because`.
 */
export const requireValue: TypedCheck = async (_ctx, args) => {
  const problems = match(args['value'], args['matches']);
  if (problems.length) {
    const why = typeof args['because'] === 'string' ? args['because'] : 'a precondition does not hold';
    throw new Error(`cannot judge: ${why} (${problems.map((m) => `${m.path} ${m.message}`).join('; ')})`);
  }
};
