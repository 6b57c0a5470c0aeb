/**
 * What every fuzz suite shares: one fixed seed (printed by fast-check on a failure, so the case
 * replays with `FUZZ_SEED=<seed>`), and run counts sized for about a minute of fuzzing in all.
 */
import type fc from 'fast-check';

/** The seed of every property: fixed, so CI is reproducible; `FUZZ_SEED` overrides it. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_261_203);

/** fast-check parameters for a property with `numRuns` cases. */
export function fuzzParameters(numRuns: number): fc.Parameters<unknown> {
  return { seed: FUZZ_SEED, numRuns, verbose: 1, endOnFailure: true };
}
