import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Suites start loopback servers on OS-assigned ports; forks keep their sockets apart.
    pool: 'forks',
    // A process warning fails the file it happened in; vitest already fails the run on an
    // unhandled rejection or an uncaught exception (dangerouslyIgnoreUnhandledErrors stays off).
    setupFiles: ['test/support/process-guard.ts'],
  },
});
