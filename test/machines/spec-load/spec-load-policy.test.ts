/** The pure rule of `specLoad`, as one table: which spec bodies are OpenAPI documents. */
import { describe, expect, it } from 'vitest';
import { decodeSpecText } from '../../../src/machines/spec-load/spec-load.policy.js';

const YAML = {
  kind: 'malformed',
  violation: 'served an OpenAPI document in YAML; JSON is required',
};
const NOT_JSON = {
  kind: 'malformed',
  violation: 'served an OpenAPI document that is not JSON; JSON is required',
};
const NOT_OBJECT = {
  kind: 'malformed',
  violation: 'served an OpenAPI document that is not a JSON object',
};

describe('decodeSpecText', () => {
  it.each([
    [
      'a JSON object',
      '{"openapi":"3.0.3","paths":{}}',
      'application/json',
      { kind: 'document', document: { openapi: '3.0.3', paths: {} } },
    ],
    [
      'a JSON object with a charset',
      '{"openapi":"3.1.0"}',
      'application/json; charset=utf-8',
      { kind: 'document', document: { openapi: '3.1.0' } },
    ],
    [
      'a JSON object with surrounding space',
      '\n  {"swagger":"2.0"}\n',
      'application/json',
      { kind: 'document', document: { swagger: '2.0' } },
    ],
    ['a JSON object without a content type', '{}', null, { kind: 'document', document: {} }],
    [
      'a JSON object served as text',
      '{"openapi":"3.0.3"}',
      'text/plain',
      { kind: 'document', document: { openapi: '3.0.3' } },
    ],
    ['a JSON array', '[{"openapi":"3.0.3"}]', 'application/json', NOT_OBJECT],
    ['a JSON number', '42', 'application/json', NOT_OBJECT],
    ['a JSON string', '"openapi"', 'application/json', NOT_OBJECT],
    ['JSON null', 'null', 'application/json', NOT_OBJECT],
    ['YAML text', 'openapi: 3.0.0\ninfo:\n  title: x\n', 'text/plain', YAML],
    ['YAML text with no content type', 'openapi: 3.0.0\n', null, YAML],
    ['Swagger 2 YAML', 'swagger: "2.0"\n', null, YAML],
    ['a YAML document marker', '---\nopenapi: 3.0.0\n', 'application/octet-stream', YAML],
    ['YAML indented after blank lines', '\n\n  openapi : 3.1.0\n', null, YAML],
    ['a yaml content type, even on a JSON body', '{"openapi":"3.0.3"}', 'application/yaml', YAML],
    ['an x-yaml content type', '{"openapi":"3.0.3"}', 'application/x-yaml; charset=utf-8', YAML],
    ['a yml content type', 'x', 'text/yml', YAML],
    ['an HTML page', '<!doctype html><html></html>', 'text/html', NOT_JSON],
    ['truncated JSON', '{"openapi":', 'application/json', NOT_JSON],
    ['an empty body', '', 'application/json', NOT_JSON],
  ] as const)('%s', (_label, text, contentType, expected) => {
    expect(decodeSpecText(text, contentType)).toEqual(expected);
  });

  it('says JSON is required for every YAML and non-JSON refusal', () => {
    for (const [text, type] of [
      ['openapi: 3.0.0', null],
      ['{}', 'application/yaml'],
      ['not json', 'text/plain'],
    ] as const) {
      const result = decodeSpecText(text, type);
      expect(result.kind).toBe('malformed');
      expect(result.kind === 'malformed' && result.violation).toContain('JSON is required');
    }
  });
});
