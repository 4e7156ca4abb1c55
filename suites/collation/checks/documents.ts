import type fc from 'fast-check';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext, FailureInput } from '../../../src/engine/checks/context.js';
import { SpecgateError } from '../../../src/errors.js';
import { DatabaseAnswerError } from '../../../src/targets/database/database-errors.js';
import type { DocumentDatabaseTarget } from '../../../src/targets/database/types.js';
import { invalidCollationDocument, validCollationDocument, type InvalidReason } from '../../../generators/collation/collation-document.js';
import { parseCollation } from '../../../reference/collation/comparator/index.js';
import type { ResolvedCollation } from '../../../reference/collation/types.js';
import { shown } from './port.js';

type Mode = 'refuses-invalid' | 'echoes-valid';

interface DocumentsArgs {
  mode: Mode;
  runs?: number;
}

/** The requirement a refusal judges, by the one way the generated document is invalid. */
const REQUIREMENT_OF: Record<InvalidReason, string> = {
  'no-locale': 'COLL-DOC-LOCALE-REQUIRED',
  'locale-type': 'COLL-DOC-FIELD-TYPES',
  'strength-type': 'COLL-DOC-FIELD-TYPES',
  'boolean-type': 'COLL-DOC-FIELD-TYPES',
  'unknown-field': 'COLL-DOC-UNKNOWN-FIELD',
  'strength-range': 'COLL-DOC-STRENGTH-VALUES',
  'case-first': 'COLL-DOC-CASEFIRST-VALUES',
  alternate: 'COLL-DOC-ALTERNATE-VALUES',
  'max-variable': 'COLL-DOC-MAXVARIABLE-VALUES',
  'unknown-locale': 'COLL-LOCALE-UNKNOWN',
};

const ECHO = 'COLL-DOC-ECHO';
const DEFAULTS = 'COLL-DOC-DEFAULTS';
const DEFAULTS_VARY = 'COLL-LOCALE-DEFAULTS-VARY';

/** The nine fields of a stored collation, the ninth under the harness's name. */
const FIELDS = ['locale', 'strength', 'caseLevel', 'caseFirst', 'numericOrdering', 'alternate', 'maxVariable', 'normalization', 'backwards'] as const;

/** ICU's defaults for a locale that does not tailor the field: the root locale's, as the reference resolves them (README: "Where ICU fills in ..."). */
const ICU_DEFAULTS = parseCollation({ locale: 'root' }) as unknown as Record<string, unknown>;

/** Booleans among the nine: a generated `boolean-type` document broke one of these. */
const BOOLEAN_FIELDS = ['caseLevel', 'numericOrdering', 'backwards', 'normalization'];

function valid(doc: Record<string, unknown>): boolean {
  try {
    parseCollation(doc);
    return true;
  } catch {
    return false;
  }
}

/**
 * The generated document with its one fault undone. The generator breaks one field of a valid
 * document drawn at random, and some of those combine options the reference refuses by
 * themselves (`backwards` at strength 1): a refusal of such a document would prove nothing about
 * the reason judged, so only documents whose repair is valid are tried.
 */
function repaired(doc: Record<string, unknown>, reason: InvalidReason): Record<string, unknown> {
  const without = (...fields: string[]): Record<string, unknown> => Object.fromEntries(Object.entries(doc).filter(([k]) => !fields.includes(k)));
  switch (reason) {
    case 'no-locale':
    case 'locale-type':
    case 'unknown-locale':
      return { ...doc, locale: 'en' };
    case 'unknown-field':
      return Object.fromEntries(Object.entries(doc).filter(([k]) => (FIELDS as readonly string[]).includes(k)));
    case 'strength-range':
    case 'strength-type':
      return without('strength');
    case 'case-first':
      return without('caseFirst');
    case 'alternate':
      return without('alternate');
    case 'max-variable':
      return without('maxVariable');
    case 'boolean-type':
      return without(...BOOLEAN_FIELDS.filter((k) => doc[k] !== undefined && typeof doc[k] !== 'boolean'));
  }
}

/**
 * ICU's `symbol` and `currency` groups: the document speaks only of whitespace and punctuation,
 * so the suite neither requires nor refuses them (COLL-DOC-MAXVARIABLE-VALUES).
 */
const UNJUDGED_MAX_VARIABLE = new Set(['symbol', 'currency']);

/** Runs a command; a refusal is returned as such rather than thrown. */
async function attempt(db: DocumentDatabaseTarget, doc: Record<string, unknown>, signal: AbortSignal): Promise<{ reply: Record<string, unknown> } | { refused: DatabaseAnswerError }> {
  try {
    return { reply: await db.command(doc, signal) };
  } catch (e) {
    if (e instanceof DatabaseAnswerError) return { refused: e };
    throw e;
  }
}

/** The `listCollections` entry of one name, or undefined when there is none. */
async function listed(db: DocumentDatabaseTarget, name: string, signal: AbortSignal): Promise<Record<string, unknown> | undefined> {
  const reply = await db.command({ listCollections: 1, filter: { name } }, signal);
  const cursor = reply.cursor;
  const batch = typeof cursor === 'object' && cursor !== null ? (cursor as { firstBatch?: unknown }).firstBatch : undefined;
  if (!Array.isArray(batch)) return undefined;
  const entry: unknown = batch.find((e: unknown) => typeof e === 'object' && e !== null && (e as { name?: unknown }).name === name);
  return typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : undefined;
}

function namer(ctx: CheckContext): () => string {
  const ns = ctx.vars.ns;
  if (typeof ns !== 'string' || ns === '') throw new SpecgateError('SG_CONFIG', 'collation.documents needs `ns` (run `collation.namespace` first in the case)');
  let n = 0;
  return () => `${ns}_doc${++n}`;
}

async function refusesInvalid(ctx: CheckContext, db: DocumentDatabaseTarget, runs: number | undefined): Promise<void> {
  const reasons = (Object.keys(REQUIREMENT_OF) as InvalidReason[]).filter((r) => ctx.requirements.includes(REQUIREMENT_OF[r]));
  if (reasons.length === 0)
    throw new SpecgateError('SG_CONFIG', `collation.documents refuses-invalid judges ${[...new Set(Object.values(REQUIREMENT_OF))].join(', ')}; case ${ctx.caseId} lists none of them`);
  const next = namer(ctx);
  const arb: fc.Arbitrary<{ document: Record<string, unknown>; reason: InvalidReason }> = invalidCollationDocument().filter(
    ({ document, reason }) => reasons.includes(reason) && !UNJUDGED_MAX_VARIABLE.has(String(document.maxVariable)) && valid(repaired(document, reason)),
  );
  const tried = new Map<string, number>();
  await ctx.property(
    arb,
    async ({ document, reason }): Promise<FailureInput | void> => {
      const requirement = REQUIREMENT_OF[reason];
      tried.set(requirement, (tried.get(requirement) ?? 0) + 1);
      const name = next();
      const made = await attempt(db, { create: name, collation: document }, ctx.signal);
      if ('reply' in made) {
        await db.command({ drop: name }, ctx.signal).catch(() => undefined);
        return { requirement, message: `a collection was created with the invalid collation document ${shown(document)} (${reason})`, expected: 'a refusal', actual: made.reply };
      }
      const left = await listed(db, name, ctx.signal);
      if (left !== undefined) {
        await db.command({ drop: name }, ctx.signal).catch(() => undefined);
        return { requirement, message: `the create with the invalid collation document ${shown(document)} (${reason}) was refused, but the collection ${name} exists`, expected: 'no collection', actual: left };
      }
    },
    { label: `invalid collation documents (${reasons.join(', ')})`, ...(runs ? { runs } : {}) },
  );
  for (const requirement of new Set(reasons.map((r) => REQUIREMENT_OF[r]))) {
    const n = tried.get(requirement) ?? 0;
    if (n > 0) ctx.observed(requirement, n);
    else ctx.noEvidence(requirement, `no generated invalid document was broken the way ${requirement} judges (${reasons.filter((r) => REQUIREMENT_OF[r] === requirement).join(', ')})`);
  }
}

/** What is wrong with a listed collation, charged to the requirement it breaks; undefined when it is right. */
export function echoProblem(written: Record<string, unknown>, resolved: ResolvedCollation, echoed: unknown): FailureInput | undefined {
  if (typeof echoed !== 'object' || echoed === null || Array.isArray(echoed))
    return { requirement: ECHO, message: `a collection created with ${shown(written)} is listed without its collation`, expected: resolved, actual: echoed };
  const got = echoed as Record<string, unknown>;
  const missing = FIELDS.filter((f) => got[f] === undefined);
  if (missing.length > 0)
    return { requirement: ECHO, message: `the collation of a collection created with ${shown(written)} is listed without ${missing.join(', ')}`, expected: resolved, actual: got };
  const changed = FIELDS.filter((f) => written[f] !== undefined && got[f] !== written[f]);
  if (changed.length > 0)
    return { requirement: ECHO, message: `the collation of a collection created with ${shown(written)} is listed with ${changed.map((f) => `${f} ${JSON.stringify(got[f])}`).join(', ')}, not as written`, expected: resolved, actual: got };
  const wrong = FIELDS.filter((f) => written[f] === undefined && got[f] !== resolved[f]);
  if (wrong.length === 0) return undefined;
  // a field the locale itself tailors judges "Default values vary with the locale"; any other ICU's defaults
  const tailored = wrong.filter((f) => ICU_DEFAULTS[f] !== resolved[f]);
  const field = tailored[0] ?? wrong[0] ?? 'locale';
  return {
    requirement: tailored.length > 0 ? DEFAULTS_VARY : DEFAULTS,
    message: `the collation of a collection created with ${shown(written)} is listed with ${wrong.map((f) => `${f} ${JSON.stringify(got[f])}`).join(', ')}, where ${field} left out is ${JSON.stringify(resolved[field])}${tailored.length > 0 ? ` for the locale ${resolved.locale}` : ' (ICU\'s default)'}`,
    expected: resolved,
    actual: got,
  };
}

/**
 * What one listed document can judge: the echo always; ICU's defaults when it leaves out a field
 * its locale does not tailor; a locale's own defaults when it leaves out a field its locale does.
 */
export function judgedBy(written: Record<string, unknown>, resolved: ResolvedCollation): string[] {
  const left = FIELDS.filter((f) => f !== 'locale' && written[f] === undefined);
  const fields = resolved as unknown as Record<string, unknown>;
  return [
    ECHO,
    ...(left.some((f) => ICU_DEFAULTS[f] === fields[f]) ? [DEFAULTS] : []),
    ...(left.some((f) => ICU_DEFAULTS[f] !== fields[f]) ? [DEFAULTS_VARY] : []),
  ];
}

/** The fixed collation the set-up creates a collection with before any generated one. */
const SET_UP_COLLATION = { locale: 'en', strength: 2 };

/**
 * The set-up owned by the step's `precondition:` (the rule that governs creating a collection
 * with a collation): one collection created with a plain valid collation. A target that refuses
 * it refuses every generated document for that reason, and the listing cannot be judged: the
 * case is blocked by the owner. Without an owner a refusal stays the echo's failure, judged per
 * generated document below.
 */
async function setUp(ctx: CheckContext, db: DocumentDatabaseTarget, name: string): Promise<void> {
  const owner = ctx.precondition;
  if (owner === undefined) return;
  const made = await attempt(db, { create: name, collation: SET_UP_COLLATION }, ctx.signal);
  if ('refused' in made) ctx.blocked(owner, `a collection could not be created with the collation ${shown(SET_UP_COLLATION)}: ${made.refused.dbMessage}`);
  await db.command({ drop: name }, ctx.signal).catch(() => undefined);
}

async function echoesValid(ctx: CheckContext, db: DocumentDatabaseTarget, runs: number | undefined): Promise<void> {
  const next = namer(ctx);
  await setUp(ctx, db, next());
  const arb = validCollationDocument().filter(valid);
  const listedBack = new Map<string, number>();
  await ctx.property(
    arb,
    async (document): Promise<FailureInput | void> => {
      const resolved = parseCollation(document);
      if (resolved === 'simple') return undefined;
      for (const requirement of judgedBy(document, resolved)) listedBack.set(requirement, (listedBack.get(requirement) ?? 0) + 1);
      const name = next();
      const made = await attempt(db, { create: name, collation: document }, ctx.signal);
      if ('refused' in made)
        return { requirement: ECHO, message: `a collection could not be created with the valid collation document ${shown(document)}: ${made.refused.dbMessage}`, expected: 'the collection created', actual: made.refused.toObservation() };
      try {
        const entry = await listed(db, name, ctx.signal);
        if (entry === undefined) return { requirement: ECHO, message: `the collection ${name}, created with ${shown(document)}, is not listed`, expected: name, actual: undefined };
        const options = entry.options;
        const echoed = typeof options === 'object' && options !== null ? (options as Record<string, unknown>).collation : undefined;
        return echoProblem(document, resolved, echoed);
      } finally {
        await db.command({ drop: name }, ctx.signal).catch(() => undefined);
      }
    },
    { label: 'valid collation documents, listed back', ...(runs ? { runs } : {}) },
  );
  const why: Record<string, string> = {
    [ECHO]: 'no generated document other than a simple one was listed back',
    [DEFAULTS]: 'no generated document left out a field its locale does not tailor',
    [DEFAULTS_VARY]: 'no generated document left out a field its locale tailors (e.g. backwards under fr_CA, caseFirst under da)',
  };
  for (const requirement of [ECHO, DEFAULTS, DEFAULTS_VARY].filter((r) => ctx.requirements.includes(r))) {
    const n = listedBack.get(requirement) ?? 0;
    if (n > 0) ctx.observed(requirement, n);
    else ctx.noEvidence(requirement, why[requirement] ?? 'nothing generated judged it');
  }
}

/**
 * `collation.documents`: generated collation documents given to `create`. `refuses-invalid`:
 * each invalid one (one field broken, the reason known) is refused and leaves no collection, a
 * failure charged to the requirement of its reason; it tries the reasons whose requirement the
 * case lists. `echoes-valid`: each valid one is listed back with all nine fields, the given ones
 * unchanged and the left-out ones as the reference comparator resolves them.
 */
export const documentsCheck = defineCheck<DocumentsArgs>({
  description: 'generated collation documents given to create: invalid ones refused (charged by reason), valid ones listed back with all nine fields',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['mode'],
    properties: {
      mode: { enum: ['refuses-invalid', 'echoes-valid'], description: 'refuses-invalid: invalid documents are refused; echoes-valid: valid documents are listed back in full' },
      runs: { type: 'integer', minimum: 1, description: 'property runs (default: the run\'s --runs)' },
    },
  },
  judges: [...new Set([...Object.values(REQUIREMENT_OF), ECHO, DEFAULTS, DEFAULTS_VARY])],
  async run(ctx, args) {
    const db = ctx.documents;
    if (!db) return ctx.notApplicable('collation documents are stored by a document database');
    if (args.mode === 'refuses-invalid') await refusesInvalid(ctx, db, args.runs);
    else await echoesValid(ctx, db, args.runs);
  },
});
