import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // Integration tests spawn real child processes; give them room on a 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Leak tests compare heap figures after a full collection (test/helpers/gc.ts).
    execArgv: ['--expose-gc'],
  },
});
