/**
 * The holes a fuzz run found, each held on real servers on loopback: a document server that does
 * not parse, an operation's own server that does not parse or leaves the fence, security scheme
 * names that could never be sent, a 21 KB `WWW-Authenticate`, an `https://` URL at a port that
 * speaks plain HTTP, a token with CR or LF, and a redirect answered to
 * `notifications/initialized`. Each ends typed, before any request it could not make.
 */
import { describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionAuthorizationRequiredError,
  ConnectionCredentialError,
  ConnectionNetworkError,
  ConnectionUrlError,
  defineOpenApiConnection,
  mountConnections,
  type SkippedTool,
} from '../../src/connections/index.js';
import { mcpHandler, reply } from '../fixtures/fault-server.js';
import { listPetsDocument } from '../fixtures/petstore.js';
import { connect, HANDSHAKE, rejectionOf, useFaultServers, wire } from '../support/fault-suite.js';

const { start } = useFaultServers();

async function mountReporting(config: Parameters<typeof defineOpenApiConnection>[0]) {
  const skipped: SkippedTool[] = [];
  const tools = await mountConnections([defineOpenApiConnection(config)], {
    onSkippedTool: (report) => skipped.push(report),
  });
  return { tools, skipped: skipped.map(({ reason, message }) => ({ reason, message })) };
}

describe('OpenAPI server URLs are parsed and fenced at mount', () => {
  it('a document whose only server does not parse fails the mount typed', async () => {
    const error = await rejectionOf(
      mountConnections([
        defineOpenApiConnection({
          name: 'pets',
          spec: listPetsDocument('x', { servers: [{ url: 'http://a b/' }] }),
        }),
      ]),
    );
    expect(ConnectionUrlError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'Connection "pets" has no server URL that parses; give baseUrl',
    );
  });

  it('a document whose first server does not parse uses the next one that does', async () => {
    const server = await start(() => reply.json(200, []));
    const { tools } = await mountReporting({
      name: 'pets',
      spec: listPetsDocument('x', { servers: [{ url: 'http://a b/' }, { url: server.origin }] }),
    });
    const result = await runTool(tools[0] as never, {}, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: [] });
    expect(wire(server)).toEqual(['GET /pets']);
  });

  it.each([
    ['http://[::1', 'invalid-server', 'GET /pets has its own server URL, which does not parse'],
    [
      'ftp://127.0.0.1/',
      'invalid-server',
      'GET /pets has its own server URL, which is not http(s)',
    ],
    [
      'http://elsewhere.example:8080/v2',
      'server-outside-fence',
      `GET /pets has its own server host "elsewhere.example:8080" outside the connection's hosts (add it to allowHosts)`,
    ],
  ])(
    'an operation whose own server is %s is refused (%s), and the rest mounts',
    async (url, reason, message) => {
      const server = await start(() => reply.json(200, []));
      const { tools, skipped } = await mountReporting({
        name: 'pets',
        spec: listPetsDocument(server.origin, {
          paths: {
            '/pets': {
              get: {
                operationId: 'listPets',
                servers: [{ url }],
                responses: { 200: { description: 'ok' } },
              },
              post: { operationId: 'addPet', responses: { 200: { description: 'ok' } } },
            },
          },
        }),
      });
      expect(tools.map((tool) => tool.name)).toEqual(['pets__addPet']);
      expect(skipped).toEqual([{ reason, message }]);
    },
  );
});

describe('security scheme names are checked like parameter names', () => {
  it.each([
    ['header', 'a b'],
    ['header', 'xé'],
    ['header', 'k;v'],
    ['cookie', 'k;v'],
    ['cookie', 'a=b'],
  ])('an apiKey %s named %j refuses its operation with a reason', async (place, name) => {
    const server = await start(() => reply.json(200, []));
    const { tools, skipped } = await mountReporting({
      name: 'pets',
      token: () => 'tok',
      spec: listPetsDocument(server.origin, {
        security: [{ key: [] }],
        components: { securitySchemes: { key: { type: 'apiKey', in: place, name } } },
      }),
    });
    expect(tools).toEqual([]);
    expect(skipped).toEqual([
      {
        reason: 'invalid-operation',
        message: `GET /pets has an apiKey ${place} "${name}" that is not a valid name`,
      },
    ]);
    expect(server.requests).toEqual([]);
  });

  it('an apiKey in the query may have any name: it is encoded', async () => {
    const server = await start(() => reply.json(200, []));
    const { tools } = await mountReporting({
      name: 'pets',
      token: () => 'tok',
      spec: listPetsDocument(server.origin, {
        security: [{ key: [] }],
        components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'a b' } } },
      }),
    });
    await runTool(tools[0] as never, {}, { source: 'agent' });
    expect(server.requests.map((request) => request.search)).toEqual(['?a+b=tok']);
  });
});

describe('answers and credentials that cannot be used end typed', () => {
  it('a 401 whose WWW-Authenticate is 21 KB is a 401 with no challenge, not a header overflow', async () => {
    const challenge = `Bearer realm="${'x'.repeat(21_000)}"`;
    const server = await start(
      mcpHandler({ 'tools/list': reply.status(401, '', { 'www-authenticate': challenge }) }),
    );
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(ConnectionAuthorizationRequiredError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'tools/list', challenge: undefined });
  });

  it('a head past 64 KiB is a response too large, typed', async () => {
    const server = await start(
      mcpHandler({ 'tools/list': reply.status(200, '', { 'x-pad': 'p'.repeat(70_000) }) }),
    );
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toMatchObject({
      name: 'ConnectionResponseTooLargeError',
      maxBytes: 65_536,
      operation: 'tools/list',
    });
  });

  it('an https:// URL at a port that speaks plain HTTP is a TLS failure, typed', async () => {
    const server = await start(mcpHandler());
    const error = await rejectionOf(
      mountConnections([
        connect(server, { transport: { url: server.url.replace('http:', 'https:') } }),
      ]),
    );
    expect(ConnectionNetworkError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ failure: 'tls', operation: 'initialize' });
  });

  it('a token with CR or LF is refused before the call sends anything', async () => {
    const server = await start(mcpHandler());
    const [echo] = await mountConnections([
      connect(server, {
        token: (context) => (context === undefined ? undefined : 'secret\r\nx-injected: 1'),
      }),
    ]);
    const from = server.requests.length;
    const result = await runTool(echo as never, { message: 'x' }, { source: 'agent' });
    const cause = toolCauseFromResult(result);
    expect(ConnectionCredentialError.isInstance(cause)).toBe(true);
    expect(result).toMatchObject({
      ok: false,
      code: 'CONNECTION_CREDENTIAL_INVALID',
      details: { problem: 'header-break', operation: 'initialize', phase: 'discovery' },
    });
    expect(JSON.stringify(result)).not.toContain('secret');
    expect(wire(server, from)).toEqual([]);
  });

  it('a redirect answered to notifications/initialized is refused, and the request is never sent', async () => {
    const server = await start(
      mcpHandler({
        'notifications/initialized': reply.redirect(307, 'http://127.0.0.1:1/elsewhere'),
      }),
    );
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(ConnectionUrlError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'Connection "faulty" refused a redirect (status 307) to http://127.0.0.1:1/elsewhere during notifications/initialized',
    );
    expect(wire(server)).toEqual(HANDSHAKE);
  });
});
