import fc from 'fast-check';
import { it } from 'vitest';
import { fileDescriptorSet } from '../../../generators/plugin/file-descriptor-set.js';
import { setFeatures } from './set-features.js';
it('scratch', () => {
  for (const seed of [42, 1, 2, 3]) {
  const d = fc.check(fc.property(fileDescriptorSet(), (s) => !setFeatures(s).has('oneof-2-fields')), { seed, numRuns: 500 });
  console.log(JSON.stringify(d.counterexample?.[0]), d.numShrinks);
  }
});
