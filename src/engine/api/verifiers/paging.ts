import { SpecgateError } from '../../../errors.js';
import { defineCheck } from '../../checks/contract.js';
import { stringify } from '../../expressions.js';
import { getPath } from '../../json-path.js';
import type { CheckContext, CheckResponse } from '../../suite-module.js';
import { resourceOf, type ApiOperation, type ApiPaging, type ApiResource, type ApiTable } from '../table.js';
import { apiOf, createItems, failer, idOf, operationOf, pageItems, send, type OperationArgs } from './common.js';
import { cutText } from '../../../targets/text-cut.js';

const PAGING_ARGS = {
  type: 'object',
  additionalProperties: false,
  required: ['operation'],
  properties: { operation: { type: 'string' }, requirement: { type: 'string' }, query: { type: 'object' } },
} as const;

type PagingArgs = Pick<OperationArgs, 'operation' | 'requirement' | 'query'>;
type Fail = ReturnType<typeof failer>;

interface Listing {
  table: ApiTable;
  op: ApiOperation;
  paging: ApiPaging;
  /** The resource listed, when the table says; without one the check pages through what the target already holds. */
  resource?: ApiResource;
  fail: Fail;
  /** The requirement the step judges, when it names one (else the case's). */
  requirement?: string;
}

function listing(ctx: CheckContext, args: PagingArgs): Listing {
  const { table } = apiOf(ctx);
  const op = operationOf(table, args.operation);
  if (!op.paging) throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: ${op.id} has no paging: in ${table.file}`);
  const owner = resourceOf(table, op.id);
  return { table, op, paging: op.paging, ...(owner ? { resource: owner.resource } : {}), fail: failer(ctx, args), ...(args.requirement ? { requirement: args.requirement } : {}) };
}

/**
 * Makes sure the list holds more than `n` items: creates them when the list belongs to a
 * resource of the table; otherwise (a read-only API such as an event stream) counts what the
 * target holds, and says so when it holds too few to judge. False after recording a failure.
 */
async function atLeast(ctx: CheckContext, l: Listing, n: number, base: Record<string, unknown>): Promise<boolean> {
  if (l.resource) return (await createItems(ctx, l.table, l.resource, n, l.fail)) !== undefined;
  const held = await walk(ctx, l, l.paging.max, base, Math.ceil(n / l.paging.max) + 1);
  if (!held) return false;
  if (held.length < n) {
    // too few records to judge by is nothing to judge (untested, with what to do), never a fault
    const why = `${l.op.id} lists ${held.length} items, and the check needs at least ${n} to judge page sizes (the table gives it no resource to create them with): point the target at a list with more`;
    for (const id of l.requirement ? [l.requirement] : ctx.requirements) ctx.noEvidence(id, why);
    return false;
  }
  return true;
}

/** One page; undefined (after recording why) when it is not a success with an item array. */
async function page(ctx: CheckContext, l: Listing, query: Record<string, unknown>): Promise<{ items: unknown[]; res: CheckResponse } | undefined> {
  const res = await send(ctx, l.op, {}, { query });
  const items = res.status >= 200 && res.status < 300 ? pageItems(res.body, l.paging.items) : undefined;
  if (!items) {
    l.fail(`${l.op.id} ${JSON.stringify(query)} answered ${res.status} without an item array at ${l.paging.items}`, { actual: cutText(res.bodyText, 300), exchange: res.exchange });
    return undefined;
  }
  return { items, res };
}

/** Records a failure unless the page `query` asks for holds exactly `size` items (more exist). */
async function expectPageSize(ctx: CheckContext, l: Listing, query: Record<string, unknown>, size: number, asked: string, rule: string): Promise<void> {
  const got = await page(ctx, l, query);
  if (got && got.items.length !== size) l.fail(`${l.op.id} ${asked} answered ${got.items.length} items; ${rule}`, { expected: size, actual: got.items.length, exchange: got.res.exchange });
}

/** `api.pagingDefault`: a list request without a page size answers exactly the default number of items (more exist). */
export const pagingDefault = defineCheck<PagingArgs>({
  description: 'without a page size, a list answers exactly the default page size when more items exist',
  args: PAGING_ARGS,
  judges: 'case',
  async run(ctx, args) {
    const l = listing(ctx, args);
    if (!(await atLeast(ctx, l, l.paging.default + 1, args.query ?? {}))) return;
    await expectPageSize(ctx, l, { ...(args.query ?? {}) }, l.paging.default, `without ${l.paging.limit}`, `the default page size is ${l.paging.default} and more items exist`);
  },
});

/**
 * `api.pagingLimit`: a page size is honoured (2 items for `limit=2`, `max` for `limit=max`) and
 * one above the maximum is clamped to it or refused, as the table says.
 */
export const pagingLimit = defineCheck<PagingArgs>({
  description: 'a page size is honoured and one above the maximum is clamped or refused as the table says',
  args: PAGING_ARGS,
  judges: 'case',
  async run(ctx, args) {
    const l = listing(ctx, args);
    const { paging } = l;
    if (!(await atLeast(ctx, l, paging.max + 1, args.query ?? {}))) return;
    const base = { ...(args.query ?? {}) };
    for (const size of [2, paging.max]) await expectPageSize(ctx, l, { ...base, [paging.limit]: size }, size, `with ${paging.limit}=${size}`, `expected ${size} (more exist)`);
    const over = await send(ctx, l.op, {}, { query: { ...base, [paging.limit]: paging.max + 1 } });
    if (paging.overMax === 'reject') {
      if (over.status < 400 || over.status >= 500)
        l.fail(`${l.op.id} with ${paging.limit}=${paging.max + 1} (above the max ${paging.max}) answered ${over.status}; the table says it is refused with a 4xx`, { actual: over.status, exchange: over.exchange });
      return;
    }
    const items = over.status >= 200 && over.status < 300 ? pageItems(over.body, paging.items) : undefined;
    if (!items) l.fail(`${l.op.id} with ${paging.limit}=${paging.max + 1} answered ${over.status}; the table says the size is clamped to ${paging.max}`, { actual: over.status, exchange: over.exchange });
    else if (items.length > paging.max)
      l.fail(`${l.op.id} with ${paging.limit}=${paging.max + 1} answered ${items.length} items; the maximum page size is ${paging.max}`, { expected: paging.max, actual: items.length, exchange: over.exchange });
  },
});

/** Most pages a walk follows before it calls the paging endless. */
const MAX_PAGES = 2000;

/**
 * Every item a walk through all pages sees, in order, following the cursor (or the offset or
 * page number). Undefined after recording a failure.
 */
export async function walk(ctx: CheckContext, l: Omit<Listing, 'resource'>, size: number, base: Record<string, unknown> = {}, pages = MAX_PAGES): Promise<unknown[] | undefined> {
  const { paging } = l;
  const all: unknown[] = [];
  let position: unknown = paging.style === 'page' ? 1 : paging.style === 'offset' ? 0 : undefined;
  for (let n = 0; n < pages; n++) {
    const query = { ...base, [paging.limit]: size, ...(position === undefined ? {} : { [paging.position]: position }) };
    const got = await page(ctx, l, query);
    if (!got) return undefined;
    all.push(...got.items);
    if (paging.style === 'cursor') {
      const next = getPath(got.res.body, paging.next ?? '$.next');
      if (next === undefined || next === null || next === '') return all;
      position = stringify(next);
    } else {
      if (got.items.length < size) return all;
      position = paging.style === 'page' ? Number(position) + 1 : Number(position) + got.items.length;
    }
  }
  // a bounded walk (enough to count) ends where it was asked to; an unbounded one that does not end is a finding
  if (pages < MAX_PAGES) return all;
  l.fail(`${l.op.id}: a walk through the pages did not end after ${MAX_PAGES} pages`);
  return undefined;
}

/** `api.pagingWalk`: walking every page returns each item exactly once. */
export const pagingWalk = defineCheck<PagingArgs>({
  description: 'walking every page (cursor, offset or page number) returns each item exactly once',
  args: PAGING_ARGS,
  judges: 'case',
  async run(ctx, args) {
    const l = listing(ctx, args);
    if (!l.resource) throw new SpecgateError('SG_SUITE_SCHEMA', `case ${ctx.caseId}: ${l.op.id} is the list operation of no resource in ${l.table.file}, so api.pagingWalk cannot create items to follow`);
    const resource = l.resource;
    const created = await createItems(ctx, l.table, resource, 7, l.fail);
    if (!created) return;
    const items = await walk(ctx, l, 3, args.query ?? {});
    if (!items) return;
    const seen = new Map<string, number>();
    for (const item of items) {
      const id = idOf(item, resource.id);
      if (id !== undefined) seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    const lost = created.filter((id) => !seen.has(id));
    if (twice.length) l.fail(`walking ${l.op.id} page by page returned ${twice.length} item(s) more than once: ${twice.slice(0, 5).join(', ')}`, { actual: twice.slice(0, 20) });
    if (lost.length) l.fail(`walking ${l.op.id} page by page never returned ${lost.length} item(s) just created: ${lost.slice(0, 5).join(', ')}`, { expected: created, actual: lost });
  },
});

export type { Listing };
