import { describe, expect, it } from 'vitest';
import * as yaml from 'yaml';
import { yamlPackage } from '../src/yaml-package.js';

describe('yamlPackage', () => {
  it('is the yaml package, loaded once', () => {
    const lib = yamlPackage();
    expect(lib).toBe(yamlPackage());
    expect(lib.stringify({ a: [1, 'two'] })).toBe(yaml.stringify({ a: [1, 'two'] }));
    expect(lib.parse('a: [1, two]')).toEqual({ a: [1, 'two'] });
  });
});
