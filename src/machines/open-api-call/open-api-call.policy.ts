/**
 * The pure rules of `openApiCall`: where the token goes, and what an answer decodes to.
 * Pure: no I/O.
 */
import type { OpenApiRequest } from '../../openapi/types.js';
import { isJsonMediaType } from '../../wire/index.js';
import type { OpenApiExchange } from './open-api-call.types.js';

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
