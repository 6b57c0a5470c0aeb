/**
 * What every connection machine shares about a run's credential: the token resolver a connection
 * provides, the actor that calls it for the run's principal, and the `starting` edge into
 * `credentials`. Resolving is the only step that touches host code, so it is one named actor
 * everywhere.
 */
import { fromPromise } from 'xstate';
import { SecretValue } from './secret-value.js';

/** Resolves a run's token from its principal (the call's handler context; absent for discovery). */
export type TokenResolver = (
  principal: unknown,
) => string | undefined | Promise<string | undefined>;

/** Input of the `resolveCredentials` actor: the run's principal, still wrapped. */
export interface CredentialsInput {
  readonly principal: SecretValue<unknown> | undefined;
}

/**
 * The `resolveCredentials` actor: calls `resolveToken` with the run's principal and wraps the
 * token; an empty string counts as none, anything but a string or `undefined` is refused.
 */
export function makeResolveCredentials(resolveToken: TokenResolver = () => undefined) {
  return fromPromise<SecretValue | undefined, CredentialsInput>(async ({ input }) => {
    const token = await resolveToken(input.principal?.reveal());
    if (token === undefined || token === '') return undefined;
    if (typeof token !== 'string') {
      throw new TypeError('A connection token provider must return a string or undefined');
    }
    return new SecretValue(token);
  });
}

/**
 * The guard every connection machine asks first: the run has a token to resolve (its connection
 * has a token provider). Without one, the run skips `credentials` and its actor.
 */
export const credentialGuards = {
  resolvesToken: (_: unknown, { resolvesToken }: { readonly resolvesToken: boolean }): boolean =>
    resolvesToken,
};

/**
 * The `starting` edge into `credentials` of every connection machine: taken when the run's
 * context says its connection has a token provider.
 */
export const toCredentials = {
  guard: {
    type: 'resolvesToken',
    params: ({ context }: { readonly context: { readonly resolvesToken: boolean } }) => ({
      resolvesToken: context.resolvesToken,
    }),
  },
  target: 'credentials',
} as const;
