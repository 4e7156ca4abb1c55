import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Long test files wait on processes, browsers and sockets as well as compute: with two files
    // side by side on a 2-core machine (vitest's default there is one) a whole run kept the
    // cores 74% busy (1,779 s of CPU in 1,208 s), so one file more than cores fills the gaps;
    // CPU-heavy files bound their own concurrency.
    maxWorkers: availableParallelism() + 1,
  },
});
