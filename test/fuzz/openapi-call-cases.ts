/**
 * Generated callable OpenAPI documents, arguments and answers, each with what its own oracle
 * expects. Documents: one to three operations with path, query and header parameters of scalar
 * schemas (strings, enums, bounded integers, numbers, booleans) and JSON bodies. Arguments are
 * generated from each mounted tool's own input schema: valid, valid with `null` for an optional
 * property (not sent), or broken one known way (a required property missing, a wrong type, an
 * unknown property, a value off its enum or range, a path segment `..`, a header with a line
 * break). Answers: 2xx JSON and text, 204, 4xx, 401, 403, 5xx, 429 with `Retry-After`, bodies over
 * the bound, malformed JSON, bodies cut short.
 */
import fc from 'fast-check';
import { type FaultReply, reply } from '../fixtures/fault-server.js';

/** The byte bound of the connection under fuzz. */
export const MAX_BYTES = 2_048;

type Schema = Record<string, unknown>;

const SCALAR_SCHEMA = fc.constantFrom<Schema>(
  { type: 'string' },
  { type: 'string', enum: ['red', 'green blue', 'a/b?c&d=e'] },
  { type: 'integer', minimum: 0, maximum: 1_000 },
  { type: 'number' },
  { type: 'boolean' },
);
const PATH_SCHEMA = fc.constantFrom<Schema>(
  { type: 'string' },
  { type: 'integer', minimum: 0, maximum: 1_000 },
);
const HEADER_SCHEMA = fc.constantFrom<Schema>(
  { type: 'string' },
  { type: 'integer', minimum: 0, maximum: 1_000 },
);
const BODY_SCHEMA = fc
  .record({
    required: fc.subarray(['name', 'count', 'tags', 'nested']),
    without: fc.subarray(['count', 'tags', 'nested']),
  })
  .map(({ required, without }) => {
    const properties: Record<string, Schema> = {
      name: { type: 'string' },
      count: { type: 'integer', minimum: 0, maximum: 1_000 },
      tags: { type: 'array', items: { type: 'string' } },
      nested: { type: 'object', properties: { flag: { type: 'boolean' } }, required: ['flag'] },
    };
    for (const name of without) delete properties[name];
    const kept = required.filter((name) => name in properties);
    return { type: 'object', properties, ...(kept.length > 0 ? { required: kept } : {}) };
  });

const TEMPLATE = fc.constantFrom('/items', '/items/{id}', '/a/{id}/b/{sub}');
const OPERATION = fc
  .record({
    method: fc.constantFrom('get', 'post', 'put', 'patch', 'delete'),
    template: TEMPLATE,
    pathSchemas: fc.tuple(PATH_SCHEMA, PATH_SCHEMA),
    query: fc.subarray(['q', 'limit', 'flag', 'tag']),
    querySchemas: fc.array(SCALAR_SCHEMA, { minLength: 4, maxLength: 4 }),
    queryRequired: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    headers: fc.subarray(['x-trace', 'x-count']),
    headerSchemas: fc.tuple(HEADER_SCHEMA, HEADER_SCHEMA),
    headerRequired: fc.tuple(fc.boolean(), fc.boolean()),
    body: fc.option(fc.tuple(BODY_SCHEMA, fc.boolean()), { nil: undefined }),
    bearer: fc.boolean(),
  })
  .map((op) => {
    const pathNames = [...op.template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
    const parameters = [
      ...pathNames.map((name, index) => ({
        name,
        in: 'path',
        required: true,
        schema: op.pathSchemas[index],
      })),
      ...op.query.map((name, index) => ({
        name,
        in: 'query',
        required: op.queryRequired[index],
        schema: op.querySchemas[index],
      })),
      ...op.headers.map((name, index) => ({
        name,
        in: 'header',
        required: op.headerRequired[index],
        schema: op.headerSchemas[index],
      })),
    ];
    const hasBody = op.body !== undefined && op.method !== 'get' && op.method !== 'delete';
    return {
      method: op.method,
      template: op.template,
      operation: {
        parameters,
        ...(hasBody && op.body !== undefined
          ? {
              requestBody: {
                required: op.body[1],
                content: { 'application/json': { schema: op.body[0] } },
              },
            }
          : {}),
        ...(op.bearer ? { security: [{ bearer: [] }] } : {}),
        responses: { 200: { description: 'ok' } },
      },
    };
  });

/** A document of one to three operations on distinct (path, method) pairs. */
export const CALLABLE_DOCUMENT = fc
  .uniqueArray(OPERATION, {
    minLength: 1,
    maxLength: 3,
    selector: (op) => `${op.template} ${op.method}`,
  })
  .map((operations) => {
    const paths: Record<string, Record<string, unknown>> = {};
    operations.forEach((op, index) => {
      paths[op.template] ??= {};
      (paths[op.template] as Record<string, unknown>)[op.method] = {
        operationId: `op${index}`,
        ...op.operation,
      };
    });
    return {
      openapi: '3.0.3',
      info: { title: 'callable', version: '1' },
      paths,
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    };
  });

/** Text a parameter may hold: slashes, query delimiters, percent signs, non-ASCII. */
const TEXT = fc.string({
  unit: fc.constantFrom('a', 'Z', '0', ' ', '/', '?', '#', '%', '&', '=', '+', '.', 'é', '😀'),
  minLength: 1,
  maxLength: 12,
});
/** Header text: visible ASCII, no edge spaces (a server reads a header value trimmed). */
const HEADER_TEXT = fc.stringMatching(/^[A-Za-z0-9_.~-][A-Za-z0-9 _.~/=-]{0,10}[A-Za-z0-9_.~-]$/);

/** A valid value of `schema`; `header` narrows strings to header text, `path` refuses dot segments. */
function valueFor(
  schema: Schema,
  where: 'path' | 'query' | 'header' | 'body',
): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case 'string':
      if (where === 'header') return HEADER_TEXT;
      return where === 'path' ? TEXT.filter((text) => text !== '.' && text !== '..') : TEXT;
    case 'integer':
      return fc.integer({ min: schema.minimum as number, max: schema.maximum as number });
    case 'number':
      return fc
        .double({ min: -1e6, max: 1e6, noNaN: true })
        .filter((value) => !Object.is(value, -0));
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor(schema.items as Schema, where), { maxLength: 3 });
    default:
      return objectOf(schema, where);
  }
}

function objectOf(schema: Schema, where: 'path' | 'query' | 'header' | 'body') {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties))
    model[name] = valueFor(property, where);
  return fc.record(model, { requiredKeys: required });
}

/** Where each top-level property of a tool's input goes, read from its operation. */
export type Locations = Readonly<Record<string, 'path' | 'query' | 'header' | 'body'>>;

/** Generated arguments: the values, whether the schema accepts them, and how they were made. */
export interface GeneratedArguments {
  readonly args: Record<string, unknown>;
  readonly valid: boolean;
  readonly how: string;
  /** The top-level properties whose `null` means "not provided": never sent. */
  readonly absent: readonly string[];
}

/** How arguments are broken (or, for `null for an optional property`, left valid). */
const MUTATION = fc.constantFrom(
  'valid',
  'valid',
  'valid',
  'null for an optional property',
  'required property missing',
  'wrong type',
  'unknown property',
  'off its enum or range',
  'path segment ..',
  'header with a line break',
);

/** Arguments for the tool whose input schema is `schema` and whose parameters go to `locations`. */
export function argumentsFor(
  schema: Schema,
  locations: Locations,
): fc.Arbitrary<GeneratedArguments> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    model[name] = valueFor(property, locations[name] ?? 'body');
  }
  return fc
    .tuple(fc.record(model, { requiredKeys: [...required] }), MUTATION, fc.nat())
    .map(([values, mutation, pick]) =>
      mutate(values, mutation, pick, properties, required, locations),
    );
}

function mutate(
  values: Record<string, unknown>,
  mutation: string,
  pick: number,
  properties: Record<string, Schema>,
  required: ReadonlySet<string>,
  locations: Locations,
): GeneratedArguments {
  const args = { ...values };
  const choose = (names: string[]) => names[pick % names.length];
  const names = Object.keys(properties);
  const valid = (how: string, absent: string[] = []) => ({ args, valid: true, how, absent });
  const invalid = (how: string) => ({ args, valid: false, how, absent: [] });
  switch (mutation) {
    case 'null for an optional property': {
      const name = choose(names.filter((n) => !required.has(n)));
      if (name === undefined) return valid('valid');
      args[name] = null;
      return valid(mutation, [name]);
    }
    case 'required property missing': {
      const name = choose([...required]);
      if (name === undefined) return valid('valid');
      delete args[name];
      return invalid(mutation);
    }
    case 'wrong type': {
      const name = choose(names);
      if (name === undefined) return valid('valid');
      const type = (properties[name] as Schema).type;
      args[name] = type === 'string' ? 42 : type === 'array' ? 'x' : ['not', 'a', 'scalar'];
      return invalid(mutation);
    }
    case 'unknown property':
      args.zzz_unknown = 1;
      return invalid(mutation);
    case 'off its enum or range': {
      const name = choose(names.filter((n) => bounded(properties[n] as Schema)));
      if (name === undefined) return valid('valid');
      args[name] = Array.isArray((properties[name] as Schema).enum) ? 'purple' : 1_001;
      return invalid(mutation);
    }
    case 'path segment ..': {
      const name = choose(names.filter((n) => locations[n] === 'path' && isString(properties[n])));
      if (name === undefined) return valid('valid');
      args[name] = '..';
      return invalid(mutation);
    }
    case 'header with a line break': {
      const name = choose(
        names.filter((n) => locations[n] === 'header' && isString(properties[n])),
      );
      if (name === undefined) return valid('valid');
      args[name] = 'a\r\nx-injected: 1';
      return invalid(mutation);
    }
    default:
      return valid('valid');
  }
}

const bounded = (schema: Schema) => Array.isArray(schema.enum) || schema.maximum !== undefined;
const isString = (schema: Schema | undefined) =>
  schema?.type === 'string' && !Array.isArray(schema.enum);

/** A generated answer and the outcome its oracle expects from a request that reached it. */
export interface GeneratedServiceAnswer {
  readonly kind: string;
  /** `ok`, or the failure code. */
  readonly expected: readonly string[];
  /** The data a success carries. */
  readonly data?: unknown;
  /** The `retryable` flag a failure carries. */
  readonly retryable?: boolean;
  /** The wait a 429 asks for (`Retry-After`), as the failure's details carry it. */
  readonly retryAfterMs?: number;
  readonly reply: FaultReply;
}

const STATUS_ANSWER = fc
  .constantFrom(400, 401, 403, 404, 409, 422, 429, 500, 502, 503)
  .map((status): GeneratedServiceAnswer => {
    const code =
      status === 401 ? 'UNAUTHORIZED' : status === 403 ? 'FORBIDDEN' : 'CONNECTION_REQUEST_FAILED';
    const headers: Record<string, string> = status === 429 ? { 'retry-after': '2' } : {};
    return {
      kind: `status ${status}`,
      expected: [code],
      retryable: [429, 502, 503].includes(status),
      ...(status === 429 ? { retryAfterMs: 2_000 } : {}),
      reply: reply.status(status, 'refused', headers),
    };
  });

/** Every kind of answer a service may give to a request that reached it. */
export const SERVICE_ANSWER: fc.Arbitrary<GeneratedServiceAnswer> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(200, 201))
      .map(([body, status]) => ({
        kind: '2xx JSON',
        expected: ['ok'],
        // JSON has no -0: the body the service sends reads back as 0.
        data: JSON.parse(JSON.stringify(body)) as unknown,
        reply: reply.json(status, body),
      })),
  },
  {
    weight: 2,
    arbitrary: fc.string({ maxLength: 40 }).map((text) => ({
      kind: '2xx text',
      expected: ['ok'],
      data: text,
      reply: reply.raw(200, { 'content-type': 'text/plain; charset=utf-8' }, [text]),
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constant({ kind: '204', expected: ['ok'], data: null, reply: reply.status(204) }),
  },
  { weight: 5, arbitrary: STATUS_ANSWER },
  {
    weight: 2,
    arbitrary: fc.nat({ max: 4_096 }).map((extra) => ({
      kind: 'over the bound',
      expected: ['CONNECTION_RESPONSE_TOO_LARGE'],
      reply: reply.json(200, { pad: 'x'.repeat(MAX_BYTES + extra) }),
    })),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom('{"a":', '{"a":1}}', '[1,', 'nul').map((text) => ({
      kind: 'malformed JSON',
      expected: ['CONNECTION_PROTOCOL_ERROR'],
      reply: reply.raw(200, { 'content-type': 'application/json' }, [text]),
    })),
  },
  {
    weight: 2,
    arbitrary: fc.boolean().map((length) => ({
      kind: `cut body (${length ? 'content-length' : 'chunked'})`,
      expected: ['CONNECTION_NETWORK_ERROR', 'CONNECTION_PROTOCOL_ERROR'],
      reply: reply.raw(
        200,
        {
          'content-type': 'application/json',
          ...(length ? { 'content-length': '200' } : {}),
        },
        ['{"items":[1,2,'],
        { cut: true },
      ),
    })),
  },
);
