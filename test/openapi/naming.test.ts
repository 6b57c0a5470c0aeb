import { describe, expect, it } from 'vitest';
import {
  createToolNamer,
  MAX_TOOL_NAME_LENGTH,
  operationKeywords,
  rawOperationName,
  sanitizeNamePart,
} from '../../src/openapi/naming.js';

describe('OpenAPI tool names', () => {
  it('sanitises runs of other characters to one underscore and trims the edges', () => {
    expect(sanitizeNamePart('repos/get-content')).toBe('repos_get-content');
    expect(sanitizeNamePart('GET_/pets/{petId}')).toBe('GET__pets_petId');
    expect(sanitizeNamePart('  a.b  c ')).toBe('a_b_c');
    expect(sanitizeNamePart('///')).toBe('operation');
  });

  it('names an operation by its operationId, else METHOD_path', () => {
    expect(rawOperationName('listPets', 'GET', '/pets')).toBe('listPets');
    expect(rawOperationName('  ', 'GET', '/pets')).toBe('GET_/pets');
    expect(rawOperationName(undefined, 'DELETE', '/pets/{id}')).toBe('DELETE_/pets/{id}');
  });

  it("keeps an operation's literal path segments and its string tags as search keywords", () => {
    expect(operationKeywords('/repos/{owner}/{repo}/forks', ['repos'])).toBe('repos forks repos');
    expect(operationKeywords('/v2/{tenant}.json/items', ['Billing', 7, null, 'CRM'])).toBe(
      'v2 items Billing CRM',
    );
    expect(operationKeywords('/', undefined)).toBe('');
    expect(operationKeywords('/{id}', 'not-a-list')).toBe('');
  });

  it('prefixes the connection and suffixes collisions _2, _3', () => {
    const name = createToolNamer('pets');
    expect([name('same id'), name('same_id'), name('same.id'), name('other')]).toEqual([
      'pets__same_id',
      'pets__same_id_2',
      'pets__same_id_3',
      'pets__other',
    ]);
  });

  it('shortens long names with a stable hash suffix, never by plain truncation', () => {
    const long = `enterprise-admin/${'very-long-segment-'.repeat(5)}a`;
    const variant = `enterprise-admin/${'very-long-segment-'.repeat(5)}b`;
    const first = createToolNamer('github')(long);
    const again = createToolNamer('github')(long);
    const other = createToolNamer('github')(variant);
    expect(first).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(first).toMatch(/^github__enterprise-admin_very-long-segment-.*_[0-9a-f]{8}$/);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(other.slice(0, 55)).toBe(first.slice(0, 55));
  });

  it('keeps a collision suffix within 64 characters', () => {
    const name = createToolNamer('c');
    const long = 'x'.repeat(80);
    const first = name(long);
    const second = name(`${long}!`);
    expect(second).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(second.endsWith('_2')).toBe(true);
    expect(second).not.toBe(first);
  });
});
