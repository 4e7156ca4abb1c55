import fc from 'fast-check';
import type { FailureInput } from '../../../src/engine/suite-module.js';
import { walk, WALK_PAGE } from './list-fetch.js';
import { cappedRuns, exactFinding, filteredFinding, onceEach, type ListBasis } from './list-findings.js';
import { extraRecords, failure, recordKey, sample, type Json } from './support.js';

/**
 * Runs of each field's property when the run does not say: one walk each. A field with few
 * values (hasFTD, saleStatus) gets up to four runs a value, so each value most likely comes up;
 * values drawn again cost nothing (onceEach).
 */
const FIELD_RUNS = 4;
const SMALL_FIELD_RUNS = 12;
/** Runs of the offer-list filter property: a run walks one list, and the single-offer lists it needs once each. */
const OFFER_RUNS = 12;
/** Most offers a generated list filter names. */
const MAX_OFFERS = 3;

/** A filterable value of a record field: a non-empty string, or an integer flag. */
type Value = string | number;

/** The values the basis records hold in a field, each once, in the order records show them. */
function valuesOf(all: readonly Json[], name: string): Value[] {
  const seen = new Set<Value>();
  for (const r of all) {
    const v = r[name];
    if ((typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isInteger(v))) seen.add(v);
  }
  return [...seen];
}

/**
 * E4/E5 field filters (custom1..custom5, customerID, and for leads saleStatus and hasFTD): one
 * property per field, each run filtering by a generated pick of a value some basis record holds
 * there; the filtered list is exactly the basis records with that value. Returns the fields that
 * had a value to filter by.
 */
export async function fieldFilterProperties(b: ListBasis, fields: readonly string[]): Promise<string[]> {
  const probed: string[] = [];
  for (const name of fields) {
    const values = valuesOf(b.all, name);
    if (!values.length) continue;
    probed.push(name);
    await b.ctx.property(
      fc.constantFrom(...values),
      onceEach(async (value) => {
        const expected = b.all.filter((r) => (typeof value === 'number' ? Number(r[name]) === value : r[name] === value));
        return filteredFinding(b, `${b.list.operation} with ${name}=${String(value)}`, { [name]: value }, expected);
      }),
      { runs: cappedRuns(b.ctx, Math.max(FIELD_RUNS, Math.min(SMALL_FIELD_RUNS, 4 * values.length))), label: `${b.list.operation} ${name} filter` },
    );
  }
  return probed;
}

/**
 * E4 offerIDs[] / E5 campaignIDs[]: records do not name their offer, so a filter by a generated
 * set of the platform's offer IDs (the name repeated) is judged against the target's own lists
 * filtered by each of those offers alone: it keeps exactly the basis records one of them keeps,
 * and no single-offer list holds a record the unfiltered list lacks.
 */
export async function offerFilterProperty(b: ListBasis, name: string, ids: readonly number[]): Promise<void> {
  const singles = new Map<number, Promise<Set<string> | FailureInput>>();
  const single = (id: number): Promise<Set<string> | FailureInput> => {
    let got = singles.get(id);
    if (!got) {
      got = walk(b.ctx, b.list, { ...b.window, [name]: id }, WALK_PAGE).then((w) => {
        const what = `${b.list.operation} with ${name}=${id}`;
        if (!w.ok) return failure(`${what}: ${w.why}`, w.res);
        const extra = extraRecords(b.all, w.items);
        if (extra.length) return failure(`${what} listed ${extra.length} record(s) the unfiltered list does not hold (first: ${sample(extra, 2)})`, w.pages[0]);
        return new Set(w.items.map(recordKey));
      });
      singles.set(id, got);
    }
    return got;
  };
  await b.ctx.property(
    fc.subarray([...ids], { minLength: 1, maxLength: Math.min(MAX_OFFERS, ids.length) }),
    onceEach(async (chosen) => {
      const kept = new Set<string>();
      for (const id of chosen) {
        const one = await single(id);
        if (!(one instanceof Set)) return one;
        for (const k of one) kept.add(k);
      }
      const expected = b.all.filter((r) => kept.has(recordKey(r)));
      const what = `${b.list.operation} with ${chosen.map((id) => `${name}=${id}`).join('&')}`;
      const got = await walk(b.ctx, b.list, { ...b.window, [name]: chosen }, WALK_PAGE);
      if (!got.ok) return failure(`${what}: ${got.why}`, got.res);
      const found = exactFinding(what, expected, got.items, got.pages[0]);
      return found ? { ...found, message: `${found.message}; matching means kept by ${name}=<one of them> alone` } : undefined;
    }),
    { runs: cappedRuns(b.ctx, OFFER_RUNS), label: `${b.list.operation} ${name}` },
  );
}
