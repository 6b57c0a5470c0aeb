/**
 * The authorization challenge of a 401 and of a 403 step-up, read from `WWW-Authenticate` on every
 * wire that can be refused (Streamable POST, legacy GET and POST, an OpenAPI call), kept on the
 * host-facing error and never in what the model sees.
 */
import { describe, expect, it } from 'vitest';
import {
  agentToolErrorFromResult,
  runTool,
  type ToolResult,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import {
  ConnectionAuthorizationRequiredError,
  ConnectionRequestError,
  defineOpenApiConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { legacyMcpHandler, mcpHandler, reply } from '../fixtures/fault-server.js';
import {
  connect,
  HANDSHAKE,
  mountEcho,
  rejectionOf,
  useFaultServers,
  wire,
} from '../support/fault-suite.js';

const { start } = useFaultServers();

const METADATA = 'https://auth.example.test/.well-known/oauth-protected-resource/mcp';
/** A 401 as MCP servers send it (spec 2025-11-25, authorization). */
const UNAUTHORIZED = {
  'www-authenticate': `Bearer realm="files", resource_metadata="${METADATA}", scope="files:read"`,
};
const CHALLENGE_401 = {
  scheme: 'bearer',
  realm: 'files',
  resourceMetadata: METADATA,
  scope: 'files:read',
};
/** A 403 step-up: two challenges, the Bearer one second, a quoted comma and an escape. */
const FORBIDDEN = {
  'www-authenticate': `Basic realm="legacy", Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="${METADATA}", error_description="needs \\"write\\", please"`,
};
const CHALLENGE_403 = {
  scheme: 'bearer',
  error: 'insufficient_scope',
  scope: 'files:read files:write',
  resourceMetadata: METADATA,
  errorDescription: 'needs "write", please',
};
/** What the model may never see of a challenge. */
const CHALLENGE_MARKERS = [
  'auth.example.test',
  'oauth-protected-resource',
  'files:',
  'insufficient_scope',
  'realm',
  'legacy',
];

/** The model-facing forms of a failure: the result, its envelope, the AgentToolError text. */
function modelFacing(result: ToolResult): string {
  if (result.ok) throw new Error('expected a failure');
  const agentError = agentToolErrorFromResult(result);
  return JSON.stringify({ result, output: agentError.output }) + agentError.message;
}

function expectNoChallengeIn(text: string): void {
  for (const marker of CHALLENGE_MARKERS) expect(text).not.toContain(marker);
}

describe('a Streamable HTTP 401 with a challenge', () => {
  it('on initialize gives discovery the parsed challenge', async () => {
    const server = await start(
      mcpHandler({ initialize: reply.status(401, 'who are you', UNAUTHORIZED) }),
    );
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(error).toMatchObject({ operation: 'initialize', phase: 'discovery' });
    expect((error as ConnectionAuthorizationRequiredError).challenge).toEqual(CHALLENGE_401);
    expect(wire(server)).toEqual(['POST /mcp initialize']);
  });

  it('on tools/call gives the host the challenge and the model the unchanged envelope', async () => {
    const server = await start(mcpHandler());
    const echo = await mountEcho(server);
    server.setHandler(mcpHandler({ 'tools/call': reply.status(401, '', UNAUTHORIZED) }));
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    expect(result).toEqual({
      ok: false,
      code: 'UNAUTHORIZED',
      details: {
        message: 'The connection requires authorization.',
        reason: 'authorization-required',
        operation: 'tools/call',
        phase: 'call',
      },
      retryable: false,
      hint: 'Obtain a new credential before retrying.',
    });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect((cause as ConnectionAuthorizationRequiredError).challenge).toEqual(CHALLENGE_401);
    expectNoChallengeIn(modelFacing(result));
  });

  it('with a malformed header carries no challenge and fails the same way', async () => {
    const server = await start(
      mcpHandler({
        'tools/list': reply.status(401, '', { 'www-authenticate': 'Bearer realm="unterminated' }),
      }),
    );
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(error).toMatchObject({ operation: 'tools/list', challenge: undefined });
    expect(wire(server)).toEqual([...HANDSHAKE, 'POST /mcp tools/list']);
  });
});

describe('a Streamable HTTP 403 step-up', () => {
  it('keeps the Bearer challenge on ConnectionRequestError; the model sees FORBIDDEN only', async () => {
    const server = await start(mcpHandler());
    const echo = await mountEcho(server);
    server.setHandler(mcpHandler({ 'tools/call': reply.status(403, 'scope', FORBIDDEN) }));
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    expect(result).toEqual({
      ok: false,
      code: 'FORBIDDEN',
      details: {
        message: 'The connection refused the request: permission denied.',
        reason: 'permission-denied',
        operation: 'tools/call',
        phase: 'call',
        upstreamStatus: 403,
      },
      retryable: false,
    });
    const cause = toolCauseFromResult(result) as ConnectionRequestError;
    expect(cause).toBeInstanceOf(ConnectionRequestError);
    expect(cause).toMatchObject({ status: 403, body: 'scope', challenge: CHALLENGE_403 });
    expectNoChallengeIn(modelFacing(result));
  });

  it('is read only on 401 and 403: a 500 with the header carries none', async () => {
    const server = await start(
      mcpHandler({ 'tools/list': reply.status(500, 'down', UNAUTHORIZED) }),
    );
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionRequestError);
    expect(error).toMatchObject({ status: 500, challenge: undefined });
  });
});

describe('the legacy HTTP+SSE wire', () => {
  it('reads the challenge of a 401 on the stream GET', async () => {
    const server = await start(
      legacyMcpHandler({ http: { GET: reply.status(401, '', UNAUTHORIZED) } }),
    );
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(error).toMatchObject({ operation: 'endpoint', challenge: CHALLENGE_401 });
    expect(wire(server)).toEqual(['POST /mcp initialize', 'GET /mcp']);
  });

  it('reads the challenge of a 403 on the stream GET', async () => {
    const server = await start(
      legacyMcpHandler({ http: { GET: reply.status(403, 'no', FORBIDDEN) } }),
    );
    const error = await rejectionOf(
      mountConnections([connect(server, { transport: { url: server.url, type: 'sse' } })]),
    );
    expect(error).toBeInstanceOf(ConnectionRequestError);
    expect(error).toMatchObject({ status: 403, operation: 'endpoint', challenge: CHALLENGE_403 });
  });

  it('reads the challenge of a 401 on a POST to the announced endpoint', async () => {
    const server = await start(
      legacyMcpHandler({
        rpc: { 'tools/list': () => ({ reply: reply.status(401, '', UNAUTHORIZED) }) },
      }),
    );
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(error).toMatchObject({ operation: 'tools/list', challenge: CHALLENGE_401 });
  });
});

describe('an OpenAPI call', () => {
  const spec = {
    openapi: '3.0.3',
    info: { title: 'files', version: '1' },
    paths: { '/files': { get: { operationId: 'listFiles' } } },
  };

  async function listFiles(baseUrl: string) {
    const [tool] = await mountConnections([
      defineOpenApiConnection({ name: 'files', spec, baseUrl, token: () => 'old-token' }),
    ]);
    if (tool === undefined) throw new Error('nothing mounted');
    return tool;
  }

  it('gives a 401 its challenge, host-facing only', async () => {
    const server = await start(() => reply.status(401, '', UNAUTHORIZED));
    const result = await runTool(await listFiles(server.origin), {}, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(cause).toMatchObject({ operation: 'openapi/call', challenge: CHALLENGE_401 });
    expectNoChallengeIn(modelFacing(result));
  });

  it('gives a 403 step-up its challenge, host-facing only', async () => {
    const server = await start(() => reply.status(403, 'no', FORBIDDEN));
    const result = await runTool(await listFiles(server.origin), {}, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionRequestError);
    expect(cause).toMatchObject({ status: 403, challenge: CHALLENGE_403 });
    expectNoChallengeIn(modelFacing(result));
  });
});
