/**
 * What every connection machine shares about a run's credential: the token resolver a connection
 * provides, the actor that calls it for the run's principal, and the `starting` edge into
 * `credentials`. Resolving is the only step that touches host code, so it is one named actor
 * everywhere.
 */
import { fromPromise } from 'xstate';
import {
  ConnectionCredentialError,
  credentialProblemOf,
  type OperationScope,
} from '../wire/index.js';
import { SecretValue } from './secret-value.js';

/** Resolves a run's token from its principal (the call's handler context; absent for discovery). */
export type TokenResolver = (
  principal: unknown,
) => string | undefined | Promise<string | undefined>;

/** Input of the `resolveCredentials` actor: the run's principal, still wrapped, and its scope. */
export interface CredentialsInput {
  readonly principal: SecretValue<unknown> | undefined;
  /** Where a refused credential is reported. */
  readonly scope: OperationScope;
  /** The token goes into a cookie (an OpenAPI apiKey `in: cookie`), where `;` is refused too. */
  readonly cookie?: boolean;
}

/**
 * The `resolveCredentials` actor: calls `resolveToken` with the run's principal and wraps the
 * token; an empty string counts as none. A token that cannot be sent (`credentialProblemOf`: not
 * a string, a CR, LF or NUL, a cookie's `;`) is refused as a {@link ConnectionCredentialError}
 * before any request is sent. A provider's own failure is relayed as it threw it.
 */
export function makeResolveCredentials(resolveToken: TokenResolver = () => undefined) {
  return fromPromise<SecretValue | undefined, CredentialsInput>(async ({ input }) => {
    const token = await resolveToken(input.principal?.reveal());
    if (token === undefined || token === '') return undefined;
    const problem = credentialProblemOf(token, { cookie: input.cookie === true });
    if (problem !== undefined) throw new ConnectionCredentialError({ ...input.scope, problem });
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
