/**
 * The OpenAPI request model: what one call of a compiled operation sends, built from the tool's
 * arguments by `buildOpenApiRequest`, with the credential's placement decided by the operation's
 * security and applied at send time by `placeCredential`.
 */

/** HTTP methods an OpenAPI operation may use here. */
export type OpenApiMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Where the operation's security puts the run's token: nowhere (anonymous), an `authorization`
 * scheme, or an API key in a header, the query or a cookie.
 */
export type CredentialPlacement =
  | { readonly kind: 'none' }
  | { readonly kind: 'authorization'; readonly scheme: 'Bearer' | 'Basic' }
  | { readonly kind: 'header'; readonly name: string }
  | { readonly kind: 'query'; readonly name: string }
  | { readonly kind: 'cookie'; readonly name: string };

/** One request, built from the tool's arguments; the credential is placed at send time. */
export interface OpenApiRequest {
  readonly method: OpenApiMethod;
  /** The full URL with the parameters' query (no credential yet). */
  readonly url: string;
  /** Header parameters and `accept`/`content-type`, lowercased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Cookie parameters, already encoded as `name=value` pairs. */
  readonly cookies: readonly string[];
  /** The JSON body text, when the call gave one. */
  readonly body?: string;
  /** Where the token goes. */
  readonly credential: CredentialPlacement;
}
