import { describe, expect, it } from 'vitest';
import { assertOpenApiDocument, listOperations } from '../../src/openapi/document.js';

describe('assertOpenApiDocument', () => {
  it.each([
    [{ openapi: '3.0.3', paths: {} }],
    [{ openapi: '3.1.0', paths: {} }],
    [{ openapi: '3.1.1' }],
  ])('accepts %j', (document) => {
    expect(() => assertOpenApiDocument('pets', document)).not.toThrow();
  });

  it.each([
    [[], 'spec must be a JSON object'],
    [null, 'spec must be a JSON object'],
    [{ swagger: '2.0' }, 'spec must be an OpenAPI 3.0 or 3.1 document (found Swagger 2.0)'],
    [{ openapi: '4.0.0' }, 'spec must be an OpenAPI 3.0 or 3.1 document (found OpenAPI 4.0.0)'],
    [{ openapi: '3.2' }, 'spec must be an OpenAPI 3.0 or 3.1 document (found OpenAPI 3.2)'],
    [{ openapi: 3.1 }, 'spec must be an OpenAPI 3.0 or 3.1 document (found no openapi version)'],
    [{ openapi: '3.0.0', paths: [] }, 'spec paths must be an object'],
    [{ openapi: '3.0.0', paths: 'x' }, 'spec paths must be an object'],
  ])('refuses %j with a TypeError naming the connection', (document, message) => {
    expect(() => assertOpenApiDocument('pets', document)).toThrow(
      new TypeError(`OpenAPI connection "pets": ${message}`),
    );
  });
});

describe('listOperations', () => {
  it('lists every operation in document order, OPTIONS and TRACE included, and skips the rest', () => {
    const pets = {
      summary: 'not an operation',
      parameters: [],
      get: { operationId: 'listPets' },
      options: { operationId: 'petsOptions' },
      post: { operationId: 'addPet' },
      connect: { operationId: 'notAMethod' },
      put: 'not an object',
    };
    const pet = { trace: { operationId: 'tracePet' }, delete: { operationId: 'deletePet' } };
    const operations = listOperations({
      openapi: '3.1.0',
      paths: { '/pets': pets, '/broken': 'x', '/pets/{id}': pet },
    });
    expect(operations.map(({ method, path, operation }) => [method, path, operation])).toEqual([
      ['GET', '/pets', { operationId: 'listPets' }],
      ['OPTIONS', '/pets', { operationId: 'petsOptions' }],
      ['POST', '/pets', { operationId: 'addPet' }],
      ['TRACE', '/pets/{id}', { operationId: 'tracePet' }],
      ['DELETE', '/pets/{id}', { operationId: 'deletePet' }],
    ]);
    expect(operations[0]?.pathItem).toBe(pets);
  });

  it.each([[{ openapi: '3.1.0' }], [{ openapi: '3.1.0', paths: [] }]])(
    'lists nothing for %j',
    (document) => {
      expect(listOperations(document)).toEqual([]);
    },
  );

  it.each(['head', 'patch'])('lists %s', (method) => {
    expect(
      listOperations({ paths: { '/a': { [method]: {} } } }).map((operation) => operation.method),
    ).toEqual([method.toUpperCase()]);
  });
});
