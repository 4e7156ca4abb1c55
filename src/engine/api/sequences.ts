import * as fc from 'fast-check';
import { SpecgateError } from '../../errors.js';
import type { CheckContext, CheckResponse, FailureInput } from '../suite-module.js';
import { arbitraryFor } from './sample-value.js';
import { ResourceStore, type ApiContext, type ApiTransition } from './sequence-model.js';
import { describeRule, findOperation, isSuccess, responseSchema, statusFits, successLabel, type ApiOperation, type ApiResource, type ApiTable } from './table.js';
import { differs, idOf, pageItems } from './verifiers/common.js';
import { walk } from './verifiers/paging.js';

/**
 * One command of a stateful sequence. `pick` chooses among the IDs the sequence has seen so far
 * (created, some perhaps removed), so a shrunk sequence stays meaningful on any target.
 */
export type SeqCommand =
  | { do: 'create'; body: unknown }
  | { do: 'get'; pick: number }
  | { do: 'list' }
  | { do: 'update'; pick: number; body: unknown }
  | { do: 'delete'; pick: number }
  | { do: string; input: unknown };

/** A resource's operations, resolved from the table. */
interface Ops {
  create?: ApiOperation;
  get?: ApiOperation;
  list?: ApiOperation;
  update?: ApiOperation;
  delete?: ApiOperation;
}

/**
 * The rule a sequence broke, so a suite can attribute it to its own requirement: an item read
 * back differently from the model (`readBack`), an operation on a live item not answered with
 * success (`success`), a list that misses or repeats a live item
 * (`list`), a removed or never created item still answered (`gone`), or a suite transition's
 * rule (`transition`, or the name its outcome gives).
 */
export type SequenceRule = string;

/** A difference a sequence found, with the kind of rule it broke. */
export type SequenceFinding = Omit<FailureInput, 'requirement'> & { rule: SequenceRule };

/**
 * Command sequences over one resource: the generic create, get, list, update and delete (those
 * the table gives it) and the suite's own transitions. Shrinking removes commands and
 * simplifies bodies, down to the shortest sequence that still fails.
 */
export function sequenceArbitrary(table: ApiTable, resource: ApiResource, transitions: Record<string, ApiTransition<never>>, maxCommands: number): fc.Arbitrary<SeqCommand[]> {
  const ops = opsOf(table, resource);
  const pick = fc.nat({ max: 7 });
  const body = (op: ApiOperation | undefined): fc.Arbitrary<unknown> => arbitraryFor(op?.request ? table.schemas[op.request] : undefined);
  const choices: fc.Arbitrary<SeqCommand>[] = [];
  if (ops.create) choices.push(body(ops.create).map((b) => ({ do: 'create', body: b })));
  if (ops.get) choices.push(pick.map((p) => ({ do: 'get', pick: p })));
  if (ops.list) choices.push(fc.constant({ do: 'list' }));
  if (ops.update) choices.push(fc.tuple(pick, body(ops.update)).map(([p, b]) => ({ do: 'update', pick: p, body: b })));
  if (ops.delete) choices.push(pick.map((p) => ({ do: 'delete', pick: p })));
  const tools = { bodyOf: (name: string) => arbitraryFor(table.schemas[name]) };
  for (const [name, t] of Object.entries(transitions)) choices.push((t.input(tools) as fc.Arbitrary<unknown>).map((input) => ({ do: name, input })));
  if (!choices.length) throw new SpecgateError('SG_SUITE_SCHEMA', `resource ${resource.name} of ${table.file} has no operations to build sequences from`);
  // fast-check shrinks an array mostly from its front; the explicit length lets it also drop
  // the commands after the one that fails, so the reported sequence ends where it fails
  return fc
    .tuple(fc.array(fc.oneof(...choices), { minLength: 1, maxLength: maxCommands }), fc.integer({ min: 1, max: maxCommands }))
    .map(([cmds, length]) => cmds.slice(0, length));
}

/** Runs one sequence against the target and the model side by side; the first difference, or undefined. */
export async function runSequence(ctx: CheckContext, table: ApiTable, resource: ApiResource, transitions: Record<string, ApiTransition<never>>, cmds: SeqCommand[]): Promise<SequenceFinding | undefined> {
  const ops = opsOf(table, resource);
  const store = new ResourceStore();
  for (let i = 0; i < cmds.length; i++) {
    const cmd = cmds[i] as SeqCommand;
    const where = `step ${i + 1} of ${cmds.length} (${label(cmd)})`;
    const found = await runCommand(ctx, table, resource, ops, transitions, store, cmd);
    if (found) return { ...found, message: `${where}: ${found.message}` };
  }
  return undefined;
}

type Found = SequenceFinding | undefined;

async function runCommand(ctx: CheckContext, table: ApiTable, resource: ApiResource, ops: Ops, transitions: Record<string, ApiTransition<never>>, store: ResourceStore, cmd: SeqCommand): Promise<Found> {
  const id = 'pick' in cmd ? (store.known.length ? (store.known[cmd.pick % store.known.length] as string) : resource.missingId) : undefined;
  const param = (op: ApiOperation): Record<string, unknown> => ({ operation: op.id, params: { [resource.param]: id } });
  if (cmd.do === 'create' && ops.create && 'body' in cmd) {
    const res = await ctx.request({ operation: ops.create.id, json: cmd.body });
    const bad = expectSuccess(ops.create, res);
    if (bad) return bad;
    const newId = idOf(res.body, resource.id);
    if (newId === undefined) return { rule: 'readBack', message: `the answer has no "${resource.id}"`, actual: res.body, exchange: res.exchange };
    const fields = asFields(cmd.body);
    const d = differs(fields, res.body);
    if (d) return { rule: 'readBack', message: `the created ${resource.name} is not what was sent: ${d}`, expected: fields, actual: res.body, exchange: res.exchange };
    store.add(newId, fields);
    return undefined;
  }
  if ((cmd.do === 'get' || cmd.do === 'update' || cmd.do === 'delete') && id !== undefined) {
    const op = ops[cmd.do];
    if (!op) return undefined;
    const live = store.get(id);
    const res = await ctx.request({ ...param(op), ...('body' in cmd ? { json: cmd.body } : {}) });
    if (!live) {
      if (!statusFits(table.goneStatus, res.status))
        return { rule: 'gone', message: `${id} ${store.isRemoved(id) ? 'was deleted' : 'never existed'}, so ${op.id} must answer ${describeRule(table.goneStatus)}; it answered ${res.status}`, expected: table.goneStatus, actual: res.status, exchange: res.exchange };
      return undefined;
    }
    const bad = expectSuccess(op, res);
    if (bad) return bad;
    if (cmd.do === 'delete') store.remove(id);
    if (cmd.do === 'update' && 'body' in cmd) store.update(id, asFields(cmd.body), op.method === 'PATCH');
    const now = store.get(id);
    // an operation whose answer the table does not describe (schema null) may answer anything but its item; judge it only when it has one
    const described = responseSchema(op, res.status) !== null || idOf(res.body, resource.id) !== undefined;
    if (cmd.do !== 'delete' && now && described && res.body !== undefined) {
      const d = differs(now, res.body);
      if (d) return { rule: 'readBack', message: `${op.id} answered a ${resource.name} that differs from the model: ${d}`, expected: now, actual: res.body, exchange: res.exchange };
    }
    return undefined;
  }
  if (cmd.do === 'list' && ops.list) return listMatches(ctx, table, resource, ops.list, store);
  const t = transitions[cmd.do];
  if (t && 'input' in cmd) {
    const op = findOperation(table, t.operation);
    if (!op) throw new SpecgateError('SG_SUITE_SCHEMA', `transition ${cmd.do} sends operation ${t.operation}, which ${table.file} does not have`);
    const res = await ctx.request({ operation: op.id, ...t.request(cmd.input as never, store) });
    const want = t.apply(cmd.input as never, store, { status: res.status, body: res.body });
    const rule = want.rule ?? 'transition';
    if (!statusFits(want.status, res.status)) return { rule, message: `${op.id} answered ${res.status}; the model says ${describeRule(want.status)}${want.why ? ` (${want.why})` : ''}`, expected: want.status, actual: res.status, exchange: res.exchange };
    const d = want.body === undefined ? undefined : differs(want.body, res.body);
    if (d) return { rule, message: `${op.id} answered a body that differs from the model: ${d}${want.why ? ` (${want.why})` : ''}`, expected: want.body, actual: res.body, exchange: res.exchange };
  }
  return undefined;
}

/** Every live item of the sequence is listed once with its fields; no deleted one is. */
async function listMatches(ctx: CheckContext, table: ApiTable, resource: ApiResource, op: ApiOperation, store: ResourceStore): Promise<Found> {
  let problem: Found;
  let items: unknown[] | undefined;
  if (op.paging) {
    const l = { table, op, paging: op.paging, resource, fail: (message: string, more = {}) => (problem ??= { rule: 'list', message, ...more }) };
    items = await walk(ctx, l, op.paging.max);
  } else {
    const res = await ctx.request({ operation: op.id });
    items = unpagedItems(res, resource);
    if (!isSuccess(op, res.status)) problem = { rule: 'list', message: `${op.id} answered ${res.status}; expected ${successLabel(op)}`, actual: res.status, exchange: res.exchange };
    else if (!items) problem = { rule: 'list', message: `${op.id} answered no item list`, actual: res.body, exchange: res.exchange };
  }
  if (problem) return problem;
  if (!items) return { rule: 'list', message: `${op.id} could not be listed` };
  const byId = new Map<string, unknown[]>();
  for (const item of items) {
    const id = idOf(item, resource.id);
    if (id !== undefined) byId.set(id, [...(byId.get(id) ?? []), item]);
  }
  for (const id of store.liveIds()) {
    const seen = byId.get(id) ?? [];
    if (seen.length !== 1) return { rule: 'list', message: `${resource.name} ${id} exists, and the list returned it ${seen.length} times`, expected: 1, actual: seen.length };
    const d = differs(store.get(id), seen[0]);
    if (d) return { rule: 'list', message: `the listed ${resource.name} ${id} differs from the model: ${d}`, expected: store.get(id), actual: seen[0] };
  }
  for (const id of store.removedIds()) if (byId.has(id)) return { rule: 'gone', message: `${resource.name} ${id} was deleted, and the list still returns it`, actual: byId.get(id)?.[0] };
  return undefined;
}

/**
 * The items of a list that does not page: the answer itself when it is an array, else the
 * resource's `items` path (an object answer without it holds none: JSON APIs often leave an
 * empty array out), else `$.items`.
 */
function unpagedItems(res: CheckResponse, resource: ApiResource): unknown[] | undefined {
  if (Array.isArray(res.body)) return res.body;
  if (!resource.items) return pageItems(res.body, '$.items');
  const found = pageItems(res.body, resource.items);
  if (found) return found;
  return res.status >= 200 && res.status < 300 && res.body && typeof res.body === 'object' ? [] : undefined;
}

function expectSuccess(op: ApiOperation, res: CheckResponse): Found {
  // its own rule: a route that does not answer with success is not a read-back that differs
  return isSuccess(op, res.status) ? undefined : { rule: 'success', message: `${op.id} answered ${res.status}; expected ${successLabel(op)}`, expected: successLabel(op), actual: res.status, exchange: res.exchange };
}

function opsOf(table: ApiTable, r: ApiResource): Ops {
  const out: Ops = {};
  for (const role of ['create', 'get', 'list', 'update', 'delete'] as const) {
    const id = r[role];
    const op = id ? findOperation(table, id) : undefined;
    if (op) out[role] = op;
  }
  return out;
}

function asFields(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** A command as one short line for messages. */
export function label(cmd: SeqCommand): string {
  return 'pick' in cmd ? `${cmd.do} #${cmd.pick}` : cmd.do;
}

/** The transitions a step names (a suite's registered `apiModels` entry) for a resource. */
export function transitionsFor(api: ApiContext, resource: string, name: string | undefined): Record<string, ApiTransition<never>> {
  if (name === undefined) return {};
  const m = api.models[name];
  if (!m) throw new SpecgateError('SG_SUITE_UNKNOWN', `no API transitions named "${name}"; the suite registers ${Object.keys(api.models).join(', ') || 'none'} (SuiteModule apiModels)`);
  if (m.resource !== resource) throw new SpecgateError('SG_SUITE_SCHEMA', `transitions "${name}" act on resource ${m.resource}, not ${resource}`);
  return m.transitions;
}
