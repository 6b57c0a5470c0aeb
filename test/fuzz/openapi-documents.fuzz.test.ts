/**
 * Generated OpenAPI documents, mounted and called against a real service on loopback: random
 * paths, methods, parameters, `$ref` graphs (cycles, dangling, deep chains), security schemes and
 * server URLs. A mount either succeeds or fails with one of our typed errors; every refusal has a
 * reason from the vocabulary; every call of a mounted tool ends typed (its only success is the
 * service's own `{"ok":true}`); nothing hangs. Calls with arguments from each tool's own schema
 * against generated answers are `openapi-calls.fuzz.test.ts`.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/binding/index.js';
import {
  defineOpenApiConnection,
  mountConnections,
  type SkippedTool,
} from '../../src/connections/index.js';
import { reply } from '../fixtures/fault-server.js';
import { useFaultServers } from '../support/fault-suite.js';
import { isOurError, untypedOutcome } from '../support/typed-outcome.js';
import { fuzzParameters } from './fuzz-config.js';
import { argumentsFor } from './openapi-call-cases.js';

const { start } = useFaultServers();

const REASONS = new Set([
  'external-ref',
  'recursive-ref',
  'server-variables',
  'invalid-server',
  'server-outside-fence',
  'structured-parameter',
  'non-json-body',
  'combined-security',
  'unknown-security',
  'unsupported-method',
  'invalid-operation',
  'invalid-name',
]);

const NAME = fc.constantFrom(
  'a',
  'b',
  'id',
  'x-key',
  'a b',
  'k;v',
  'body',
  '',
  'é',
  'Authorization',
);
const REF = fc.constantFrom(
  '#/components/schemas/A',
  '#/components/schemas/B',
  '#/components/schemas/Missing',
  '#/components/parameters/P',
  'other.json#/x',
  '#/components/schemas/A/properties/next',
  '#',
);
const SCHEMA: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(
      { type: 'string' },
      { type: 'integer' },
      { type: 'object' },
      { type: 'array', items: {} },
      true,
      {},
    ),
    REF.map((ref) => ({ $ref: ref })),
    fc.record({
      type: fc.constant('object'),
      properties: fc.dictionary(fc.constantFrom('p', 'q', 'next'), tie('schema'), { maxKeys: 2 }),
    }),
    fc.array(tie('schema'), { maxLength: 2 }).map((anyOf) => ({ anyOf })),
  ),
})).schema;
const PARAMETER = fc.oneof(
  fc.record(
    {
      name: NAME,
      in: fc.constantFrom('query', 'header', 'path', 'cookie', 'body', 'nowhere'),
      required: fc.boolean(),
      schema: SCHEMA,
      style: fc.constantFrom(undefined, 'form', 'deepObject', 'simple'),
    },
    { requiredKeys: ['name', 'in'] },
  ),
  REF.map((ref) => ({ $ref: ref })),
);
const SECURITY_SCHEME = fc.oneof(
  fc.record({
    type: fc.constant('apiKey'),
    in: fc.constantFrom('header', 'query', 'cookie', 'body'),
    name: NAME,
  }),
  fc.constantFrom(
    { type: 'http', scheme: 'bearer' },
    { type: 'http', scheme: 'digest' },
    { type: 'oauth2' },
    { type: 'mutualTLS' },
  ),
);
const SERVER = fc.constantFrom(
  'http://a b/',
  'http://[::1',
  '/v1',
  'ftp://x/',
  'http://elsewhere.example/',
  '{scheme}://x',
  '',
);
const OPERATION = fc.record(
  {
    operationId: fc.constantFrom('op', 'op', 'second', 'x'.repeat(80), 'bad name!'),
    parameters: fc.array(PARAMETER, { maxLength: 3 }),
    requestBody: fc.oneof(
      fc.constant(undefined),
      SCHEMA.map((schema) => ({ content: { 'application/json': { schema } } })),
      fc.constant({ content: { 'text/plain': {} } }),
    ),
    security: fc.oneof(
      fc.constant(undefined),
      fc.constantFrom([{}], [{ s0: [] }], [{ s0: [], s1: [] }], [{ missing: [] }], 'nope'),
    ),
    servers: fc.oneof(
      fc.constant(undefined),
      SERVER.map((url) => [{ url }]),
    ),
    responses: fc.constant({ 200: { description: 'ok' } }),
  },
  { requiredKeys: ['responses'] },
);
const DOCUMENT = fc
  .record({
    paths: fc.dictionary(
      fc.constantFrom('/a', '/a/{id}', '/b/{a}/{b}', 'no-slash', '/c'),
      fc.dictionary(
        fc.constantFrom('get', 'post', 'put', 'delete', 'options', 'trace', 'parameters'),
        OPERATION,
        { maxKeys: 3 },
      ),
      { maxKeys: 3 },
    ),
    schemas: fc.dictionary(fc.constantFrom('A', 'B'), SCHEMA, { maxKeys: 2 }),
    schemes: fc.dictionary(fc.constantFrom('s0', 's1'), SECURITY_SCHEME, { maxKeys: 2 }),
    server: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 3 },
      { arbitrary: SERVER, weight: 1 },
    ),
  })
  .map(({ paths, schemas, schemes, server }) => ({
    openapi: '3.0.3',
    info: { title: 'fuzz', version: '1' },
    ...(server === undefined ? {} : { servers: [{ url: server }] }),
    paths,
    components: {
      schemas,
      securitySchemes: schemes,
      parameters: { P: { name: 'p', in: 'query' } },
    },
  }));

describe('a generated OpenAPI document', () => {
  it('mounts or fails typed, refuses with a reason from the vocabulary, and every call ends typed', async () => {
    const service = await start(() => reply.json(200, { ok: true }));
    const tally = { documents: 0, mountFailures: 0, refused: 0, calls: 0, successes: 0 };
    await fc.assert(
      fc.asyncProperty(
        DOCUMENT,
        fc.nat({ max: 3 }).map((n) => n > 0),
        async (document, withBase) => {
          tally.documents += 1;
          const skipped: SkippedTool[] = [];
          let tools: Awaited<ReturnType<typeof mountConnections>>;
          try {
            tools = await mountConnections(
              [
                defineOpenApiConnection({
                  name: 'fuzz',
                  spec: document,
                  token: () => 'tok',
                  timeoutMs: 2_000,
                  ...(withBase ? { baseUrl: service.origin } : {}),
                }),
              ],
              { onSkippedTool: (report) => skipped.push(report) },
            );
          } catch (error) {
            tally.mountFailures += 1;
            expect(isOurError(error), String(error)).toBe(true);
            return;
          }
          tally.refused += skipped.length;
          for (const report of skipped) expect(REASONS, report.reason).toContain(report.reason);
          // The service answers every request 200 {"ok":true}: that is the only success.
          const oracle = { success: (data: unknown) => isDeepStrictEqual(data, { ok: true }) };
          for (const tool of tools) {
            // Once with nothing, once with arguments from the tool's own schema (whatever its
            // $refs, combinators and locations expanded to); the full oracle is openapi-calls'.
            const schema = tool.inputJsonSchema as Record<string, unknown>;
            const [generated] = fc.sample(argumentsFor(schema, {}), {
              numRuns: 1,
              seed: tally.calls,
            });
            for (const args of [{}, generated?.args ?? {}]) {
              const result = await runTool(tool, args, { source: 'agent' });
              tally.calls += 1;
              if (result.ok) tally.successes += 1;
              expect(untypedOutcome(result, oracle), JSON.stringify(result)).toBeUndefined();
            }
          }
        },
      ),
      fuzzParameters(500),
    );
    console.info(`openapi documents fuzz: ${JSON.stringify(tally)}`);
    // The generator reaches every path: mounts that fail, refusals, and calls.
    expect(tally.mountFailures).toBeGreaterThanOrEqual(80);
    expect(tally.refused).toBeGreaterThanOrEqual(400);
    expect(tally.calls).toBeGreaterThanOrEqual(25);
    expect(tally.successes).toBeGreaterThanOrEqual(20);
  }, 60_000);
});
