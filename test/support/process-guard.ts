/**
 * The guard every test file runs under (vitest `setupFiles`): a process warning
 * (`MaxListenersExceededWarning`, a deprecation, anything Node emits) fails the file it happened
 * in, as an unhandled rejection or an uncaught exception already fails the run (vitest reports
 * them as errors and exits non-zero). A warning is a defect a user would see in their own logs.
 */
import { afterAll, expect } from 'vitest';

const warnings: string[] = [];
process.on('warning', (warning) => {
  warnings.push(`${warning.name}: ${warning.message}`);
});

afterAll(() => {
  expect(warnings, 'process warnings emitted while this file ran').toEqual([]);
});
