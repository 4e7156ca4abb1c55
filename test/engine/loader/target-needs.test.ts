/**
 * What a profile must set, as `specgate init` and `list --vars` say it and as a run asks for it:
 * declared `required: true`, or read by a case that does not list it under `needs:`.
 */
import { describe, expect, it } from 'vitest';
import type { ApiOperation, ApiTable } from '../../../src/engine/api/table.js';
import { apiTableReads, profileVars, targetNeeds } from '../../../src/engine/loader/target-needs.js';
import type { CaseDef, LoadedSuite, Step } from '../../../src/engine/model.js';
import { Registry } from '../../../src/engine/registry.js';

const at = { file: 'cases/x.yaml', line: 1, column: 1 };
const get = (url: string): Step => ({ request: { method: 'GET', url } }) as Step;
const aCase = (id: string, steps: Step[], extra: Partial<CaseDef> = {}): CaseDef => ({ id, requirements: ['X-1'], steps, location: at, ...extra });
const suite = (cases: CaseDef[]): LoadedSuite => ({
  name: 'x',
  dir: '/nowhere',
  requirements: [],
  cases,
  vars: {
    base_url: { description: 'the target', required: true },
    scope: { description: 'a scope (optional)' },
    extra: { description: 'read only by cases that need the scope' },
    hint: { description: 'read by no case' },
  },
});
const registry = new Registry([]);
const required = (s: LoadedSuite): string[] => profileVars(s, registry).filter((v) => v.required).map((v) => v.name);

describe('profileVars', () => {
  it('marks a declared optional variable required when a case reads it without needs:', () => {
    expect(required(suite([aCase('a', [get('${base_url}/token?scope=${scope}')])]))).toEqual(['base_url', 'scope']);
  });

  it('leaves it optional when every case that reads it lists it under needs:', () => {
    expect(required(suite([aCase('a', [get('${base_url}/token?scope=${scope}')], { needs: ['scope'] })]))).toEqual(['base_url']);
  });

  it('counts what a case that needs a required variable reads, since that case runs once the variable is set', () => {
    expect(required(suite([aCase('a', [get('${base_url}/x?e=${extra}')], { needs: ['base_url'] })]))).toEqual(['base_url', 'extra']);
  });

  it('does not count a variable the case sets itself before reading it, nor cases that are skipped', () => {
    const sets = aCase('a', [{ set: { scope: 'mine' } } as Step, get('${base_url}/token?scope=${scope}')]);
    const skipped = aCase('b', [get('${base_url}/x?e=${extra}')], { skip: 'not yet' });
    expect(required(suite([sets, skipped]))).toEqual(['base_url']);
  });
});

describe('targetNeeds', () => {
  it('collects the reads of the cases that will run: a case whose needs: are unset asks for nothing', () => {
    const cases = [aCase('a', [get('${base_url}/a')]), aCase('b', [get('${base_url}/b?s=${scope}')], { needs: ['hint'] })];
    const needs = targetNeeds(cases, new Set(['base_url', 'scope', 'hint']), registry, {}, false);
    expect([...needs.reads.keys()]).toEqual(['base_url']);
    expect(needs.bases.get('base_url')?.map((u) => u.caseId)).toEqual(['a']);
  });
});

describe('the API table a selection reaches', () => {
  const op = (id: string, extra: Partial<ApiOperation> = {}): ApiOperation => ({ id, method: 'GET', path: `/${id}`, parameters: [], requiredHeaders: {}, auth: true, responses: {}, ...extra });
  const table = {
    suite: 't',
    base: '${mon_url}',
    auth: { header: 'K', value: '${mon_key}', status: 403 },
    operations: [op('monList'), op('platList', { base: '${api_url}', auth: false })],
  } as unknown as ApiTable;
  const byOperation = (operation: string): Step => ({ request: { operation } }) as Step;
  const tableSuite = (cases: CaseDef[]): LoadedSuite => ({
    ...suite(cases),
    vars: { mon_url: { description: 'm', required: true }, mon_key: { description: 'k', required: true }, api_url: { description: 'a', required: true } },
    api: table,
  });

  it('the cases of one API reach only its operations: their base, and the credentials only of operations that authenticate', () => {
    const needs = targetNeeds([aCase('p', [byOperation('platList')])], undefined, registry, {}, true);
    expect([...needs.operations]).toEqual(['platList']);
    expect(apiTableReads(table, needs.operations)).toEqual(['api_url']);
    expect(apiTableReads(table, targetNeeds([aCase('m', [byOperation('monList')])], undefined, registry, {}, true).operations)).toEqual(['mon_url', 'mon_key']);
  });

  it('an operation named by an expression may be any of them', () => {
    const needs = targetNeeds([aCase('e', [byOperation('${row.op}')])], undefined, registry, {}, true);
    expect(apiTableReads(table, needs.operations).sort()).toEqual(['api_url', 'mon_key', 'mon_url']);
  });

  it('profileVars for the cases of a selection leaves declared-required variables only other cases need optional', () => {
    const s = tableSuite([aCase('m', [byOperation('monList')]), aCase('p', [byOperation('platList')])]);
    const only = (cases: CaseDef[]): string[] => profileVars(s, registry, cases).filter((v) => v.required).map((v) => v.name);
    expect(only(s.cases)).toEqual(['mon_url', 'mon_key', 'api_url']);
    expect(only(s.cases.filter((c) => c.id === 'p'))).toEqual(['api_url']);
  });
});
