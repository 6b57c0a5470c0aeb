/**
 * Where an operation's security puts the host's token: the first supported alternative of the
 * operation's requirements (or the document's). `{}` is anonymous; one apiKey (header, query,
 * cookie), http basic or bearer, oauth2 or openIdConnect (the host's token as a bearer) per
 * alternative; and how the token is placed on the wire request once the run has resolved it.
 * Pure: no I/O.
 */
import { isRecord } from '../binding/kernel/type-guards.js';
import { isHttpToken } from '../wire/core/header-text.js';
import type { WireRequest } from '../wire/index.js';
import type { RefExpander } from './expand.js';
import { refuse } from './refusal.js';
import type { CredentialPlacement, OpenApiRequest } from './types.js';

const API_KEY_PLACES: ReadonlySet<string> = new Set(['header', 'query', 'cookie']);

/**
 * Where an API key named `name` goes `in` (header, query or cookie): its placement, `undefined`
 * when `in` or `name` is not one, or `invalid-name` for a header or cookie name outside RFC 9110's
 * token, which could never be sent (and a cookie name with `;` or `=` would forge another
 * cookie). The one rule for a document's apiKey scheme and a connection's `security` override.
 */
export function apiKeyPlacement(
  place: unknown,
  name: unknown,
): CredentialPlacement | 'invalid-name' | undefined {
  if (typeof place !== 'string' || !API_KEY_PLACES.has(place)) return undefined;
  if (typeof name !== 'string' || name.trim() === '') return undefined;
  if (place !== 'query' && !isHttpToken(name)) return 'invalid-name';
  return { kind: place as 'header' | 'query' | 'cookie', name };
}

/** The placement of one scheme, or `undefined` when this library cannot apply it. */
function placementOf(scheme: Record<string, unknown>): CredentialPlacement | undefined {
  const type = scheme.type;
  if (type === 'apiKey') {
    const placement = apiKeyPlacement(scheme.in, scheme.name);
    if (placement === 'invalid-name') {
      refuse(
        'invalid-operation',
        `has an apiKey ${String(scheme.in)} "${String(scheme.name)}" that is not a valid name`,
      );
    }
    return placement;
  }
  if (type === 'http') {
    const kind = typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : '';
    if (kind === 'bearer') return { kind: 'authorization', scheme: 'Bearer' };
    if (kind === 'basic') return { kind: 'authorization', scheme: 'Basic' };
    return undefined;
  }
  if (type === 'oauth2' || type === 'openIdConnect') {
    return { kind: 'authorization', scheme: 'Bearer' };
  }
  return undefined;
}

/**
 * The placement for an operation. Refuses with `combined-security` when every alternative needs
 * several schemes at once, else `unknown-security` when none can be applied.
 */
export function selectCredentialPlacement(
  requirements: unknown,
  schemes: unknown,
  expander: RefExpander,
): CredentialPlacement {
  if (requirements === undefined) return { kind: 'none' };
  if (!Array.isArray(requirements))
    refuse('invalid-operation', 'declares security that is not a list');
  if (requirements.length === 0) return { kind: 'none' };
  let combined = false;
  for (const requirement of requirements) {
    if (!isRecord(requirement)) continue;
    const names = Object.keys(requirement);
    if (names.length === 0) return { kind: 'none' };
    if (names.length > 1) {
      combined = true;
      continue;
    }
    const declared = isRecord(schemes) ? schemes[names[0] as string] : undefined;
    const scheme = expander.resolveObject(declared);
    const placement = scheme === undefined ? undefined : placementOf(scheme);
    if (placement !== undefined) return placement;
  }
  return combined
    ? refuse('combined-security', 'requires several security schemes at once')
    : refuse('unknown-security', 'offers no security scheme this library can apply');
}

export function basicCredential(token: string): string {
  return Buffer.from(token, 'utf8').toString('base64');
}

/**
 * The wire request with the connection's static headers, then the token placed where the
 * operation's security says. Placed last, so no parameter can override it: a same-named header is
 * replaced, a same-named query parameter or cookie is dropped. The token arrives checked (the
 * credentials step refuses CR, LF, NUL, and a cookie's `;`: `credentialProblemOf`).
 */
export function placeCredential(
  request: OpenApiRequest,
  token: string | undefined,
  signal: AbortSignal,
  staticHeaders?: Readonly<Record<string, { reveal(): string }>>,
): WireRequest {
  const url = new URL(request.url);
  const headers: Record<string, string> = Object.assign({}, request.headers);
  // The connection's own headers, after the operation's parameters; the credential comes last.
  if (staticHeaders !== undefined) {
    for (const [name, value] of Object.entries(staticHeaders)) {
      headers[name.toLowerCase()] = value.reveal();
    }
  }
  let cookies = request.cookies;
  const placement = request.credential;
  if (token !== undefined && placement.kind !== 'none') {
    if (placement.kind === 'authorization') {
      headers.authorization =
        placement.scheme === 'Basic' ? `Basic ${basicCredential(token)}` : `Bearer ${token}`;
    } else if (placement.kind === 'header') {
      headers[placement.name.toLowerCase()] = token;
    } else if (placement.kind === 'query') {
      url.searchParams.set(placement.name, token);
    } else if (placement.kind === 'cookie') {
      const prefix = `${placement.name}=`;
      cookies = [...cookies.filter((pair) => !pair.startsWith(prefix)), `${prefix}${token}`];
    }
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  return {
    url,
    method: request.method,
    headers,
    signal,
    ...(request.body === undefined ? {} : { body: request.body }),
  };
}
