// @ts-check
/**
 * Mutation testing of src/machines, src/wire and src/openapi (`npm run mutate`; not in CI, it
 * takes hours on two cores). docs/mutation.md is written from the JSON report by
 * scripts/mutation-report.ts and says which suites run and what was left out.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  mutate: ['src/machines/**/*.ts', 'src/wire/**/*.ts', 'src/openapi/**/*.ts'],
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  checkers: ['typescript'],
  // The sources and the suites that run, without bench/ (it type-checks against dist/).
  tsconfigFile: 'tsconfig.mutation.json',
  coverageAnalysis: 'perTest',
  // With a checker, 2 is one TypeScript checker beside one test runner (one mutant at a time).
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  // A mutant that runs only while a module loads (a constant) would need every test per mutant.
  ignoreStatic: true,
  // Unchanged mutants keep their verdict between runs; the file is a local cache (gitignored).
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['json', 'clear-text', 'progress'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
