import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // Integration tests spawn real child processes: a ceiling that only a hang reaches, on a busy
    // 2-core machine too, where a test can take several times what it takes alone.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most of a file's time is spent waiting on the processes it drives, not on a core: two files
    // at a time even where vitest's default (one fewer than the cores) would run one.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Leak tests compare heap figures after a full collection (test/helpers/gc.ts).
    execArgv: ['--expose-gc'],
  },
});
