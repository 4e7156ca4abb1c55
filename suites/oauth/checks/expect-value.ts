import { defineCheck } from '../../../src/engine/checks/contract.js';
import { holdPrecondition } from '../../../src/engine/checks/precondition.js';
import { match, show } from '../../../src/checks/matchers.js';
import { sameTarget } from './redirect-outcome.js';

/** Arguments of `oauth.expect`: a value and what it must be (at least one of matches, landsOn, mentions). */
interface ExpectArgs {
  value?: unknown;
  matches?: unknown;
  landsOn?: string;
  mentions?: string;
  ifPresent?: boolean;
  when?: { value?: unknown; matches: unknown };
  requirement?: string;
  message?: string;
}

/**
 * Judges a captured value (typically a user-agent result, which has no `expect:` of its own)
 * with the ordinary matcher vocabulary. `matches` (a matcher), `landsOn` (the value is a URL
 * that must have this URL's origin and path), `mentions` (some string anywhere inside the value
 * must equal it); `ifPresent` judges only when the value exists (another requirement already
 * fails when it is missing); `when` judges only when another value matches (an answer that is
 * not the one this requirement is about is another requirement's business); `requirement`
 * names the one requirement judged (default: all of the case's); `message` says what the value is.
 */
export const expectValue = defineCheck<ExpectArgs>({
  description: 'judges a captured value with the matcher vocabulary (matches, landsOn, mentions)',
  args: {
    type: 'object',
    additionalProperties: false,
    anyOf: [{ required: ['matches'] }, { required: ['landsOn'] }, { required: ['mentions'] }],
    properties: {
      value: { description: 'the value judged, usually "${captured}"' },
      matches: { description: 'a matcher, as in expect:' },
      landsOn: { type: 'string', description: 'a URL whose origin and path the value (a URL) must have' },
      mentions: { type: 'string', description: 'a string some value inside must equal' },
      ifPresent: { type: 'boolean', description: 'judge only when the value exists' },
      when: {
        type: 'object',
        additionalProperties: false,
        required: ['matches'],
        properties: { value: { description: 'another value, usually "${captured}"' }, matches: { description: 'a matcher it must meet for the judgement to be made' } },
        description: 'judge only when this other value matches',
      },
      requirement: { type: 'string', pattern: '^[A-Z][A-Z0-9-]+$', description: 'the requirement judged (default: all of the case)' },
      message: { type: 'string', description: 'what the value is, for failure messages' },
    },
  },
  judges: 'case',
  async run(ctx, args) {
    const { value, requirement, message } = args;
    if (args.ifPresent === true && (value === undefined || value === null)) return;
    if (args.when && match(args.when.value, args.when.matches).length) return;
    const attributed = requirement ? { requirement } : {};
    if ('matches' in args) {
      for (const m of match(value, args.matches)) {
        ctx.fail({ ...attributed, message: `${message ?? 'value'}: ${m.path} ${m.message}`, expected: m.expected, actual: m.actual });
      }
    }
    if (typeof args.mentions === 'string' && !mentions(value, args.mentions)) {
      ctx.fail({ ...attributed, message: `${message ?? 'value'} must name ${args.mentions}`, expected: args.mentions, actual: value });
    }
    if (typeof args.landsOn === 'string') {
      const target = args.landsOn;
      if (typeof value !== 'string' || !sameTarget(value, target)) {
        ctx.fail({ ...attributed, message: `${message ?? 'the browser'} must land on ${target}`, expected: target, actual: show(value) });
      }
    }
  },
});

/** Whether some string or number anywhere inside `value` equals `text`. */
export function mentions(value: unknown, text: string): boolean {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value) === text;
  if (Array.isArray(value)) return value.some((v) => mentions(v, text));
  if (value && typeof value === 'object') return Object.values(value).some((v) => mentions(v, text));
  return false;
}

/**
 * A precondition: when `value` does not match, the case cannot judge its requirements. With the
 * step's `precondition:` owner it ends blocked by that rule (the owner failing first when the
 * case judges it); without one it ends errored with `because`. Never a pass, and never a
 * failure of a rule the case merely rests on.
 */
export const requireValue = defineCheck<{ value?: unknown; matches: unknown; because: string }>({
  description: 'a precondition: the case ends blocked by the step\'s precondition owner (errored without one) when the value does not match',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['matches', 'because'],
    properties: {
      value: { description: 'the value, usually "${captured}"' },
      matches: { description: 'a matcher, as in expect:' },
      because: { type: 'string', minLength: 1, description: 'what does not hold, for the blocked or errored case' },
    },
  },
  // it may fail the owner it rests on when the case judges that rule; otherwise it judges nothing
  judges: 'case',
  async run(ctx, args) {
    holdPrecondition(ctx, { value: args.value, matches: args.matches, because: args.because, owner: ctx.precondition });
  },
});
