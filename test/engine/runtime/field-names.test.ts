import { describe, expect, it } from 'vitest';
import { neutralFieldNames, renameFields } from '../../../src/engine/runtime/field-names.js';

const NAMES = { performed_via_platform_app: 'via_app', avatar_service_id: 'avatar_id' };

describe('renaming the spec\'s field names to a target\'s and back', () => {
  it('renames keys at any depth, in objects and lists, keeping values and order', () => {
    const spec = { id: 1, performed_via_platform_app: { owner: { avatar_service_id: 'x' } }, list: [{ avatar_service_id: '' }, 3] };
    const vendor = renameFields(spec, NAMES);
    expect(vendor).toEqual({ id: 1, via_app: { owner: { avatar_id: 'x' } }, list: [{ avatar_id: '' }, 3] });
    expect(Object.keys(vendor as object)).toEqual(['id', 'via_app', 'list']);
    expect(renameFields(vendor, neutralFieldNames(NAMES))).toEqual(spec);
  });

  it('returns a value that holds none of the names as it is, and never changes the one given', () => {
    const body = { id: 1, actor: { login: 'a' }, tags: ['x'] };
    expect(renameFields(body, NAMES)).toBe(body);
    const mixed = { keep: { same: true }, actor: { avatar_service_id: 'y' } };
    const out = renameFields(mixed, NAMES) as Record<string, unknown>;
    expect(out['keep']).toBe(mixed.keep);
    expect(mixed.actor).toEqual({ avatar_service_id: 'y' });
  });

  it('keeps a "__proto__" key as data and exact integers as they came', () => {
    const body = JSON.parse('{"__proto__": {"avatar_service_id": "p"}, "n": 1}') as Record<string, unknown>;
    body['big'] = 9007199254740993n;
    const out = renameFields(body, NAMES) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ avatar_id: 'p' });
    expect(out['big']).toBe(9007199254740993n);
  });
});
