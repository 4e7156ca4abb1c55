import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most long test files wait on processes, browsers and sockets rather than compute, so two
    // files side by side even on a 2-core machine (vitest's default there is one) cut the wall
    // time by about a third; CPU-heavy files bound their own concurrency.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
