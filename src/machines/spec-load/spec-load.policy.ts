/**
 * The pure rule of `specLoad`: which bodies are OpenAPI documents. JSON objects only; a YAML
 * document is refused with a reason that says JSON is required. Pure: no I/O.
 */
import type { SpecExchange } from './spec-load.types.js';

/** Media types that announce YAML. */
const YAML_TYPE = /\b(yaml|yml)\b/i;
/** The first line of most YAML OpenAPI documents. */
const YAML_START = /^\s*(---|openapi\s*:|swagger\s*:)/;

/** The document in a spec body, or why it is not one. */
export function decodeSpecText(text: string, contentType: string | null): SpecExchange {
  if ((contentType !== null && YAML_TYPE.test(contentType)) || YAML_START.test(text)) {
    return {
      kind: 'malformed',
      violation: 'served an OpenAPI document in YAML; JSON is required',
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      kind: 'malformed',
      violation: 'served an OpenAPI document that is not JSON; JSON is required',
    };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { kind: 'malformed', violation: 'served an OpenAPI document that is not a JSON object' };
  }
  return { kind: 'document', document: parsed as Record<string, unknown> };
}
