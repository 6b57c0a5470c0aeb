/**
 * The pure rules of `openApiCall`: where the token goes, and what an answer decodes to.
 * Pure: no I/O.
 */
import type { WireRequest } from '../wire/index.js';
import type { OpenApiExchange, OpenApiRequest } from './open-api-call.types.js';

/** A JSON media type: `application/json`, or any `+json` suffix (e.g. `application/problem+json`). */
export function isJsonMediaType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const essence = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return essence === 'application/json' || /^[a-z0-9.+-]+\/[a-z0-9.+-]+\+json$/.test(essence);
}

/** Whether an answer carries no body to decode: 204, 205, and every answer to HEAD. */
export function hasNoBody(method: OpenApiRequest['method'], status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 205;
}

/** The decoded value of a 2xx body: JSON for JSON types (empty: `null`), else the text. */
export function decodeResponseBody(
  status: number,
  contentType: string | null,
  text: string,
): OpenApiExchange {
  if (!isJsonMediaType(contentType)) return { kind: 'decoded', status, value: text };
  if (text.trim() === '') return { kind: 'decoded', status, value: null };
  try {
    return { kind: 'decoded', status, value: JSON.parse(text) as unknown };
  } catch {
    return {
      kind: 'malformed',
      violation: 'answered with a JSON content type but a body that is not JSON',
    };
  }
}

/** Characters that would split a header (or a cookie) on the wire. */
export const CONTROL_CHARACTERS = /[\r\n\0]/;

function basicCredential(token: string): string {
  return Buffer.from(token, 'utf8').toString('base64');
}

/**
 * The wire request with the token placed where the operation's security says. Placed last, so no
 * parameter can override it: a same-named header is replaced, a same-named query parameter or
 * cookie is dropped.
 */
export function placeCredential(
  request: OpenApiRequest,
  token: string | undefined,
  signal: AbortSignal,
): WireRequest {
  const url = new URL(request.url);
  const headers: Record<string, string> = { ...request.headers };
  let cookies = request.cookies;
  const placement = request.credential;
  if (token !== undefined && placement.kind !== 'none') {
    // The token is never echoed, so a malformed one is refused here rather than by the client.
    if (CONTROL_CHARACTERS.test(token)) {
      throw new TypeError('A connection token must not contain CR, LF or NUL');
    }
    if (placement.kind === 'authorization') {
      headers.authorization =
        placement.scheme === 'Basic' ? `Basic ${basicCredential(token)}` : `Bearer ${token}`;
    } else if (placement.kind === 'header') {
      headers[placement.name.toLowerCase()] = token;
    } else if (placement.kind === 'query') {
      url.searchParams.set(placement.name, token);
    } else if (placement.kind === 'cookie') {
      // A `;` would end the cookie and start another one of the token's choosing.
      if (token.includes(';')) {
        throw new TypeError('A connection token placed in a cookie must not contain ";"');
      }
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
