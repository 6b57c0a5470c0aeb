import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The suites `npm run mutate` runs against each mutant: the fast, deterministic ones that cover
 * src/machines, src/wire and src/openapi. The end-to-end suites (connections, binding, structure,
 * cli, fuzz) stay out: they take minutes per run, and docs/mutation.md says so.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/machines/**/*.test.ts', 'test/wire/**/*.test.ts', 'test/openapi/**/*.test.ts'],
  },
});
