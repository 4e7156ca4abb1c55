import fc from 'fast-check';
import { it } from 'vitest';
import { fileDescriptorSet } from '../../../generators/plugin/file-descriptor-set.js';
import { ProtocEcho } from './protoc-echo.js';
it('scratch', () => {
  const echo = new ProtocEcho();
  const lines = new Map<string, number>();
  for (const set of fc.sample(fileDescriptorSet(), { seed: 7, numRuns: 300 })) {
    const v = echo.check(set);
    for (const l of v.stderr.split('\n')) if (l) { const k = l.replace(/"[^"]*"/g, '"…"'); lines.set(k, (lines.get(k) ?? 0) + 1); }
  }
  console.log([...lines].slice(0, 30));
  const s = fc.sample(fileDescriptorSet(), { seed: 9, numRuns: 3 });
  console.log(JSON.stringify(s[2]).length, JSON.stringify(s[2]).slice(0, 3000));
});
