/**
 * OpenAPI security on the wire: each scheme kind places the per-call token where the document
 * says, the token is resolved from the call's context, and it never reaches a result, an error
 * message, a transition record or a reported URL. 401/403/5xx map to the connection errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnyRuntimeToolDefinition,
  runTool,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import {
  ConnectionAuthorizationRequiredError,
  ConnectionRequestError,
  defineOpenApiConnection,
  mountConnections,
  type SkippedTool,
} from '../../src/connections/index.js';
import type { TransitionRecord } from '../../src/machines/index.js';
import {
  type FaultServer,
  reply,
  type SeenRequest,
  startFaultServer,
} from '../fixtures/fault-server.js';
import {
  activeResourceCounts,
  expectNoLeakedResources,
  trackUnhandledRejections,
} from '../support/leaks.js';

const TOKEN = 'tok-9f3b7c1e5a';

let server: FaultServer;
let baseline: ReturnType<typeof activeResourceCounts>;
const unhandled = trackUnhandledRejections();

beforeAll(async () => {
  baseline = activeResourceCounts();
  server = await startFaultServer((request) =>
    request.path === '/fail/401'
      ? reply.status(401, `expired ${TOKEN}`)
      : request.path === '/fail/403'
        ? reply.status(403, 'no')
        : request.path === '/fail/503'
          ? reply.status(503, 'busy')
          : reply.json(200, { ok: true, path: request.path }),
  );
});
afterAll(async () => {
  await server.close();
  await expectNoLeakedResources(baseline);
  expect(unhandled).toEqual([]);
});

const SCHEMES = {
  header: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
  query: { type: 'apiKey', in: 'query', name: 'api_key' },
  cookie: { type: 'apiKey', in: 'cookie', name: 'sid' },
  basic: { type: 'http', scheme: 'basic' },
  bearer: { type: 'http', scheme: 'bearer' },
  oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/token', scopes: {} } } },
  both: { type: 'http', scheme: 'hmac' },
};

function securedDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const scheme of ['header', 'query', 'cookie', 'basic', 'bearer', 'oauth']) {
    paths[`/${scheme}`] = {
      get: {
        operationId: scheme,
        security: [{ [scheme]: [] }],
        parameters:
          scheme === 'header'
            ? [{ name: 'X-Api-Key', in: 'header' }]
            : scheme === 'query'
              ? [{ name: 'api_key', in: 'query' }]
              : scheme === 'cookie'
                ? [{ name: 'sid', in: 'cookie' }]
                : [],
      },
    };
  }
  paths['/anonymous'] = { get: { operationId: 'anonymous', security: [{}] } };
  paths['/unsupported'] = { get: { operationId: 'unsupported', security: [{ both: [] }] } };
  for (const status of ['401', '403', '503']) {
    paths[`/fail/${status}`] = { get: { operationId: `fail${status}` } };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'secured', version: '1' },
    security: [{ bearer: [] }],
    paths,
    components: { securitySchemes: SCHEMES },
  };
}

let tools: readonly AnyRuntimeToolDefinition[];
const records: TransitionRecord[] = [];
const skipped: SkippedTool[] = [];
const providerContexts: unknown[] = [];

beforeAll(async () => {
  tools = await mountConnections(
    [
      defineOpenApiConnection({
        name: 'secured',
        spec: securedDocument(),
        baseUrl: server.origin,
        token: (context) => {
          providerContexts.push(context?.source);
          return TOKEN;
        },
        observe: (record) => records.push(record),
      }),
    ],
    { onSkippedTool: (entry) => skipped.push(entry) },
  );
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const tool = tools.find((candidate) => candidate.name === `secured__${name}`);
  if (tool === undefined) throw new Error(`${name} not mounted`);
  const before = server.requests.length;
  const result = await runTool(tool, args, { source: 'agent' });
  const requests = server.requests.slice(before);
  return { result, requests, only: requests[0] as SeenRequest };
}

describe('OpenAPI security placement', () => {
  it('refuses the operation whose alternatives are all unsupported, and mounts the rest', () => {
    expect(skipped.map((entry) => [entry.tool, entry.reason])).toEqual([
      ['unsupported', 'unknown-security'],
    ]);
    expect(tools).toHaveLength(10);
  });

  it('places an apiKey in a header, over a same-named header parameter', async () => {
    const { only, result } = await call('header', { 'X-Api-Key': 'model-chosen' });
    expect(only.headers['x-api-key']).toBe(TOKEN);
    expect(only.headers.authorization).toBeUndefined();
    expect(result.ok).toBe(true);
  });

  it('places an apiKey in the query, replacing a same-named query parameter', async () => {
    const { only } = await call('query', { api_key: 'model-chosen' });
    expect(only.search).toBe(`?api_key=${TOKEN}`);
  });

  it('places an apiKey in a cookie, replacing a same-named cookie parameter', async () => {
    const { only } = await call('cookie', { sid: 'model-chosen' });
    expect(only.headers.cookie).toBe(`sid=${TOKEN}`);
  });

  it('refuses a token with ";" for a cookie before any request, and sends it in a header', async () => {
    const semi = await mountConnections(
      [
        defineOpenApiConnection({
          name: 'semi',
          spec: securedDocument(),
          baseUrl: server.origin,
          token: () => 'tok; admin=1',
        }),
      ],
      { onSkippedTool: () => {} },
    );
    const tool = (name: string) =>
      semi.find((candidate) => candidate.name === `semi__${name}`) as AnyRuntimeToolDefinition;
    const before = server.requests.length;
    const refused = await runTool(tool('cookie'), {}, { source: 'agent' });
    expect(refused).toMatchObject({ ok: false, code: 'CONNECTION_CREDENTIAL_INVALID' });
    expect(toolCauseFromResult(refused)).toMatchObject({ problem: 'cookie-separator' });
    expect(server.requests.length).toBe(before);
    expect(await runTool(tool('header'), {}, { source: 'agent' })).toMatchObject({ ok: true });
    expect(server.requests.slice(before).map((request) => request.headers['x-api-key'])).toEqual([
      'tok; admin=1',
    ]);
  });

  it('sends basic (user:pass), bearer, and oauth2 as a bearer', async () => {
    expect((await call('basic')).only.headers.authorization).toBe(
      `Basic ${Buffer.from(TOKEN).toString('base64')}`,
    );
    expect((await call('bearer')).only.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect((await call('oauth')).only.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('sends nothing for {} and resolves the token with the call context, once per call', async () => {
    providerContexts.length = 0;
    records.length = 0;
    const { only } = await call('anonymous');
    // A connection with a token provider resolves it first, even for an anonymous operation.
    expect(
      records
        .filter((record) => record.machine === 'openApiCall')
        .map(({ from, to }) => [from, to]),
    ).toEqual([
      ['', 'credentials'],
      ['credentials', 'requesting'],
      ['requesting', 'closed'],
    ]);
    expect(only.headers.authorization).toBeUndefined();
    expect(only.headers.cookie).toBeUndefined();
    expect(only.search).toBe('');
    expect(providerContexts).toEqual(['agent']);
  });

  it('maps 401 to authorization required, 403 to a refusal, 503 to a retryable request error', async () => {
    const unauthorized = await call('fail401');
    expect(unauthorized.result).toMatchObject({
      ok: false,
      code: 'UNAUTHORIZED',
      retryable: false,
    });
    expect(toolCauseFromResult(unauthorized.result)).toBeInstanceOf(
      ConnectionAuthorizationRequiredError,
    );
    const forbidden = await call('fail403');
    expect(forbidden.result).toMatchObject({ ok: false, code: 'FORBIDDEN', retryable: false });
    const cause = toolCauseFromResult(forbidden.result);
    expect(cause).toBeInstanceOf(ConnectionRequestError);
    expect((cause as ConnectionRequestError).status).toBe(403);
    const busy = await call('fail503');
    expect(busy.result).toMatchObject({
      ok: false,
      code: 'CONNECTION_REQUEST_FAILED',
      retryable: true,
    });
    expect((toolCauseFromResult(busy.result) as ConnectionRequestError).status).toBe(503);
  });

  it('never lets the token reach a result, a message, a transition record or a URL', async () => {
    const outcomes = [await call('query'), await call('fail401'), await call('fail503')];
    for (const { result } of outcomes) {
      expect(JSON.stringify(result)).not.toContain(TOKEN);
      const cause = toolCauseFromResult(result) as Error | undefined;
      expect(String(cause?.message ?? '')).not.toContain(TOKEN);
    }
    expect(JSON.stringify(records)).not.toContain(TOKEN);
    expect(records).toContainEqual(
      expect.objectContaining({ machine: 'openApiCall', to: 'closed' }),
    );
  });
});
