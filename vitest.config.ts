import { defineConfig } from 'vitest/config';

/**
 * One vitest run for the whole repository: unit tests of packages and the server's
 * integration tests (which start their own throwaway embedded PostgreSQL database).
 */
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/web/src/**/*.test.ts',
      'tools/**/*.test.ts',
      'eslint-rules/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    globalSetup: ['apps/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
