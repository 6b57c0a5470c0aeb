/**
 * A generated OpenAPI 3.0.3 document for the mount benchmark, the same bytes on every run (index
 * arithmetic only, no randomness): 1,000 paths with a `get` and a `post` each (2,000 operations),
 * an absolute server, and operations that share deep component references. Every `post` body
 * refs one of 100 `Body` schemas; each refs a `Level1` schema, and `Level1` to `Level5` each ref
 * two schemas of the next level (5 nested levels of shared components, 3.0 dialect: `nullable`,
 * boolean `exclusiveMinimum`). Every operation uses the shared `ItemId` path parameter and `get`
 * the shared `PageSize` and `Filter` (a scalar `$ref` schema) query parameters. Every operation is inside
 * the supported subset, so all 2,000 must mount.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CACHE_DIR } from './openapi-github.js';

/** Paths in the document; each has a `get` and a `post`. */
export const GENERATED_PATHS = 1_000;
const FAMILIES = 10;
const BODIES = 100;
const LEVELS = 5;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const level = (depth: number, family: number) => `Level${depth}_${family % FAMILIES}`;

function leaf(family: number): Record<string, unknown> {
  return {
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      createdAt: { type: 'string', format: 'date-time' },
      note: { type: 'string', nullable: true, maxLength: 200 },
      score: { type: 'number', minimum: 0, exclusiveMinimum: true },
      kind: { type: 'string', enum: [`kind-${family}-a`, `kind-${family}-b`] },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
    },
  };
}

function schemas(): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (let family = 0; family < FAMILIES; family++) {
    result[level(LEVELS, family)] = leaf(family);
    for (let depth = LEVELS - 1; depth >= 1; depth--) {
      result[level(depth, family)] = {
        type: 'object',
        description: `Level ${depth} of family ${family}`,
        properties: {
          label: { type: 'string', nullable: true },
          first: ref(level(depth + 1, family)),
          second: ref(level(depth + 1, family + 1)),
        },
      };
    }
  }
  for (let body = 0; body < BODIES; body++) {
    result[`Body${body}`] = {
      type: 'object',
      required: ['payload'],
      properties: {
        payload: ref(level(1, body)),
        priority: { type: 'integer', minimum: 0, maximum: 9 },
        history: { type: 'array', items: ref(level(3, body + 3)), maxItems: 5 },
      },
    };
  }
  result.FilterExpression = { type: 'string', nullable: true, maxLength: 100 };
  result.Result = {
    type: 'object',
    properties: { ok: { type: 'boolean' }, id: { type: 'string' } },
  };
  return result;
}

function operations(index: number): Record<string, unknown> {
  const id = String(index).padStart(4, '0');
  const itemId = { $ref: '#/components/parameters/ItemId' };
  const responses = {
    '200': { description: 'OK', content: { 'application/json': { schema: ref('Result') } } },
  };
  return {
    get: {
      operationId: `getResource${id}`,
      summary: `Read item of resource ${id}`,
      parameters: [
        itemId,
        { $ref: '#/components/parameters/PageSize' },
        { $ref: '#/components/parameters/Filter' },
      ],
      responses,
    },
    post: {
      operationId: `createResource${id}`,
      summary: `Write item of resource ${id}`,
      parameters: [itemId],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(`Body${index % BODIES}`) } },
      },
      responses,
    },
  };
}

/** The generated document as an object. */
export function generatedDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < GENERATED_PATHS; index++) {
    paths[`/resources/r${String(index).padStart(4, '0')}/items/{itemId}`] = operations(index);
  }
  return {
    openapi: '3.0.3',
    info: { title: 'stitchkit-transport mount benchmark', version: '1.0.0' },
    servers: [{ url: 'https://bench.example.com/v1' }],
    paths,
    components: {
      parameters: {
        ItemId: {
          name: 'itemId',
          in: 'path',
          required: true,
          schema: { type: 'string', pattern: '^[a-z0-9-]+$' },
        },
        PageSize: {
          name: 'pageSize',
          in: 'query',
          schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        },
        Filter: { name: 'filter', in: 'query', schema: ref('FilterExpression') },
      },
      schemas: schemas(),
    },
  };
}

/** Writes the generated document's JSON text to the cache folder; returns where and its hash. */
export async function writeGeneratedDocument(): Promise<{
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
}> {
  const text = JSON.stringify(generatedDocument());
  await mkdir(CACHE_DIR, { recursive: true });
  const path = join(CACHE_DIR, 'generated-2000.json');
  await writeFile(path, text, 'utf8');
  const sha256 = createHash('sha256').update(text).digest('hex');
  return { path, bytes: Buffer.byteLength(text), sha256 };
}
