/**
 * Fault scenarios: answers that break the protocol (malformed JSON, a JSON-RPC error) and
 * redirects, which are refused even to the connection's own host.
 */
import { describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionProtocolError,
  ConnectionUrlError,
  mountConnections,
} from '../../src/connections/index.js';
import { type FaultServer, mcp, mcpHandler, reply } from '../fixtures/fault-server.js';
import {
  connect,
  HANDSHAKE,
  mountEcho,
  rejectionOf,
  useFaultServers,
  wire,
} from '../support/fault-suite.js';

const { start } = useFaultServers();

const MALFORMED = reply.raw(200, { 'content-type': 'application/json' }, [
  '{"jsonrpc":"2.0","id":',
]);

describe('a malformed JSON body', () => {
  it('on initialize ends discovery in ConnectionProtocolError without fallback', async () => {
    const server = await start(mcpHandler({ initialize: MALFORMED }));
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect(error).toMatchObject({
      operation: 'initialize',
      phase: 'discovery',
      rpcCode: undefined,
      // The error says how much of the body was read before it was refused.
      observedReadBytes: '{"jsonrpc":"2.0","id":'.length,
    });
    expect(wire(server)).toEqual(['POST /mcp initialize']);
  });

  it('on tools/call ends the call in ConnectionProtocolError after exactly one tools/call', async () => {
    const server = await start(mcpHandler({ 'tools/call': MALFORMED }));
    const echo = await mountEcho(server);
    const before = server.requests.length;
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    expect(result).toEqual({
      ok: false,
      code: 'CONNECTION_PROTOCOL_ERROR',
      details: {
        message: 'The connection returned a malformed response.',
        reason: 'protocol-error',
        operation: 'tools/call',
        phase: 'call',
      },
      retryable: false,
    });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionProtocolError);
    expect(cause).toMatchObject({
      operation: 'tools/call',
      phase: 'call',
      rpcCode: undefined,
      observedReadBytes: '{"jsonrpc":"2.0","id":'.length,
    });
    expect(wire(server, before)).toEqual([...HANDSHAKE, 'POST /mcp tools/call']);
  });
});

describe('a JSON-RPC error response to tools/call', () => {
  it('ends the call in ConnectionProtocolError carrying the rpcCode', async () => {
    const server = await start(
      mcpHandler({ 'tools/call': (request) => mcp.error(request.rpc?.id ?? null, -32603, 'boom') }),
    );
    const echo = await mountEcho(server);
    const before = server.requests.length;
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    expect(result).toEqual({
      ok: false,
      code: 'CONNECTION_PROTOCOL_ERROR',
      details: {
        message: 'The connection answered with JSON-RPC error -32603.',
        reason: 'protocol-error',
        operation: 'tools/call',
        phase: 'call',
        rpcCode: -32603,
      },
      retryable: false,
    });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionProtocolError);
    expect(cause).toMatchObject({ operation: 'tools/call', phase: 'call', rpcCode: -32603 });
    expect(wire(server, before)).toEqual([...HANDSHAKE, 'POST /mcp tools/call']);
  });
});

describe('a 307 to the same host', () => {
  it('on initialize ends discovery in ConnectionUrlError; the target receives nothing', async () => {
    const server: FaultServer = await start(
      mcpHandler({ initialize: () => reply.redirect(307, `${server.origin}/moved`) }),
    );
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect(error).toMatchObject({ url: server.url, operation: 'initialize', phase: 'discovery' });
    expect(wire(server)).toEqual(['POST /mcp initialize']);
  });

  it('on tools/call ends the call in ConnectionUrlError; the target receives nothing', async () => {
    const server: FaultServer = await start(
      mcpHandler({ 'tools/call': () => reply.redirect(307, `${server.origin}/moved`) }),
    );
    const echo = await mountEcho(server);
    const before = server.requests.length;
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    expect(result).toEqual({
      ok: false,
      code: 'BAD_REQUEST',
      details: {
        message: 'The connection refused a URL outside its policy.',
        reason: 'url-rejected',
        operation: 'tools/call',
        phase: 'call',
      },
      retryable: false,
    });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionUrlError);
    expect(cause).toMatchObject({ url: server.url, operation: 'tools/call', phase: 'call' });
    expect(wire(server, before)).toEqual([...HANDSHAKE, 'POST /mcp tools/call']);
  });
});

describe('a refused redirect says where it pointed', () => {
  it('names the same-origin path (the common /mcp to /mcp/), so the host can configure it', async () => {
    const server = await start(mcpHandler({ initialize: reply.redirect(307, '/mcp/') }));
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect(error).toMatchObject({
      message: 'Connection "faulty" refused a redirect (status 307) to /mcp/ during initialize',
      url: server.url,
      redirectTo: `${server.url}/`,
      operation: 'initialize',
    });
    expect(wire(server)).toEqual(['POST /mcp initialize']);
  });

  it('drops the query of a same-origin target from the message and the field', async () => {
    const server = await start(
      mcpHandler({ initialize: reply.redirect(308, '/v2/mcp?session=SECRET-SESSION#frag') }),
    );
    const error = (await rejectionOf(mountConnections([connect(server)]))) as ConnectionUrlError;
    expect(error.message).toBe(
      'Connection "faulty" refused a redirect (status 308) to /v2/mcp during initialize',
    );
    expect(error.redirectTo).toBe(`${server.origin}/v2/mcp`);
  });

  it('says only "another host" for a cross-host target, which receives nothing', async () => {
    const target = await start(mcpHandler());
    const foreign = `http://localhost:${target.port}/mcp?token=SECRET-TOKEN`;
    const server = await start(mcpHandler({ initialize: reply.redirect(302, foreign) }));
    const error = (await rejectionOf(mountConnections([connect(server)]))) as ConnectionUrlError;
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect(error.message).toBe(
      'Connection "faulty" refused a redirect (status 302) to another host during initialize',
    );
    expect(error.redirectTo).toBeUndefined();
    expect(JSON.stringify({ ...error, message: error.message })).not.toMatch(/localhost|SECRET/);
    expect(target.count()).toBe(0);
  });

  it('leaves the model-facing result of a call unchanged', async () => {
    const server = await start(mcpHandler());
    const echo = await mountEcho(server);
    server.setHandler(mcpHandler({ 'tools/call': reply.redirect(307, '/mcp/') }));
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    expect(result).toEqual({
      ok: false,
      code: 'BAD_REQUEST',
      details: {
        message: 'The connection refused a URL outside its policy.',
        reason: 'url-rejected',
        operation: 'tools/call',
        phase: 'call',
      },
      retryable: false,
    });
    expect(toolCauseFromResult(result)).toMatchObject({
      message: 'Connection "faulty" refused a redirect (status 307) to /mcp/ during tools/call',
      redirectTo: `${server.url}/`,
    });
  });
});
