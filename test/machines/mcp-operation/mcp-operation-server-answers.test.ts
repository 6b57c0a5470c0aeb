/**
 * What an MCP client run answers the server during a call, with the binding's own caller
 * (`toolCallerOf`) and a real loopback server for the answers posted back: a server request
 * answered locally and POSTed with the run's headers, a log message passed on, an
 * `input_required` round answered by the caller or refused typed.
 */
import { describe, expect, it } from 'vitest';
import { type ToolCallerHandler, toolCallerOf } from '../../../src/binding/contract/caller.js';
import {
  answerInputRequests,
  handleServerMessage,
} from '../../../src/machines/mcp-operation/mcp-operation.server-requests.js';
import type { ActorBase } from '../../../src/machines/mcp-operation/mcp-operation.types.js';
import { SecretValue } from '../../../src/machines/secret-value.js';
import { ConnectionProtocolError, createHostFence } from '../../../src/wire/index.js';
import { serveEachTest } from '../../support/loopback-server.js';

const serve = serveEachTest();
const scope = { connectionName: 'c', operation: 'tools/call', phase: 'call' } as const;

function baseOf(handler: ToolCallerHandler | undefined, origin = 'http://127.0.0.1:9'): ActorBase {
  const relay =
    handler === undefined ? undefined : toolCallerOf(handler, new AbortController().signal);
  return {
    scope,
    fence: createHostFence('c', new URL(origin)),
    headers: {
      staticHeaders: { 'x-team': new SecretValue('blue') },
      token: new SecretValue('t0k'),
      sessionId: new SecretValue('s-1'),
      protocolVersion: '2025-11-25',
    },
    relay: relay === undefined ? undefined : new SecretValue(relay),
    callerCapabilities: relay?.capabilities ?? {},
  };
}

const budget = (signal = new AbortController().signal) => ({ ...scope, maxBytes: 4_096, signal });

describe('handleServerMessage', () => {
  it("answers a server's ping itself: the empty result POSTed back with the run's headers", async () => {
    const seen: { headers: Record<string, unknown>; body: string }[] = [];
    const server = await serve(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      seen.push({ headers: req.headers, body });
      res.writeHead(202).end();
    });
    const ping = { jsonrpc: '2.0', id: 'p-7', method: 'ping' };
    const handled = await handleServerMessage(
      baseOf(undefined, server.origin),
      ping,
      `${server.origin}/mcp`,
      budget(),
      undefined,
    );
    expect(handled).toBe(true);
    expect(server.requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['POST /mcp']);
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ jsonrpc: '2.0', id: 'p-7', result: {} });
    expect(seen[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: 'Bearer t0k',
      'mcp-session-id': 's-1',
      'mcp-protocol-version': '2025-11-25',
      'x-team': 'blue',
    });
  });

  it('passes a log message on to the caller and posts nothing', async () => {
    const logs: unknown[] = [];
    const base = baseOf({ capabilities: {}, log: (message) => void logs.push(message) });
    const log = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'x' },
    };
    expect(
      await handleServerMessage(base, log, 'http://127.0.0.1:9/mcp', budget(), undefined),
    ).toBe(true);
    expect(logs).toEqual([{ level: 'info', data: 'x' }]);
  });

  it('leaves anything else to the machine (an answer, a progress report)', async () => {
    const base = baseOf({ capabilities: {}, log: () => undefined });
    for (const message of [
      { jsonrpc: '2.0', id: 2, result: {} },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1 },
      },
    ]) {
      expect(
        await handleServerMessage(base, message, 'http://127.0.0.1:9/mcp', budget(), undefined),
      ).toBe(false);
    }
  });

  it('refuses typed a mid-call request for a caller that answers only by a retry', async () => {
    const base = baseOf({
      capabilities: { elicitation: {} },
      request: async () => ({ result: { action: 'accept' } }),
      defersInput: true,
    });
    const ask = { jsonrpc: '2.0', id: 3, method: 'elicitation/create', params: { message: 'ok?' } };
    const failure = handleServerMessage(base, ask, 'http://127.0.0.1:9/mcp', budget(), undefined);
    await expect(failure).rejects.toBeInstanceOf(ConnectionProtocolError);
    await expect(failure).rejects.toMatchObject({
      message: expect.stringContaining(
        'asked its caller for elicitation/create in the middle of a 2025-11-25 call',
      ),
      // What the tool's own caller is shown (the projection of the error), in plain words.
      safeMessage: expect.stringContaining(
        'which a client on MCP 2026-07-28 cannot answer through this gateway',
      ),
    });
  });
});

describe('answerInputRequests', () => {
  const elicit = { method: 'elicitation/create', params: { message: 'ok?' } };

  it("answers each question with the caller's result, under the question's key", async () => {
    const asked: unknown[] = [];
    const base = baseOf({
      capabilities: { elicitation: {}, sampling: {} },
      request: async (request) => {
        asked.push(request);
        return { result: { answered: request.method } };
      },
    });
    const responses = await answerInputRequests(
      {
        base,
        inputRequests: {
          a: elicit,
          b: { method: 'sampling/createMessage', params: { messages: [] } },
        },
      },
      new AbortController().signal,
    );
    expect(responses).toEqual({
      a: { answered: 'elicitation/create' },
      b: { answered: 'sampling/createMessage' },
    });
    expect(asked).toEqual([
      { method: 'elicitation/create', params: { message: 'ok?' } },
      { method: 'sampling/createMessage', params: { messages: [] } },
    ]);
  });

  it.each([
    ['a method the caller never declared', { sampling: {} }, elicit, '(elicitation/create)'],
    [
      'a method that is no caller method',
      { elicitation: {} },
      { method: 'tools/list', params: {} },
      '(an unknown method)',
    ],
  ])(
    'refuses %s with a ConnectionProtocolError naming it',
    async (_label, capabilities, request, named) => {
      const base = baseOf({ capabilities, request: async () => ({ result: {} }) });
      const failure = answerInputRequests(
        { base, inputRequests: { a: request } },
        new AbortController().signal,
      );
      await expect(failure).rejects.toBeInstanceOf(ConnectionProtocolError);
      await expect(failure).rejects.toMatchObject({
        message: expect.stringContaining(
          `asked for client input the caller did not declare ${named}`,
        ),
      });
    },
  );

  it('refuses every question when the call has no caller', async () => {
    const failure = answerInputRequests(
      { base: baseOf(undefined), inputRequests: { a: elicit } },
      new AbortController().signal,
    );
    await expect(failure).rejects.toBeInstanceOf(ConnectionProtocolError);
  });

  it("ends typed with the caller's code and message when the caller refuses", async () => {
    const base = baseOf({
      capabilities: { elicitation: {} },
      request: async () => ({ error: { code: -1, message: 'User rejected' } }),
    });
    const failure = answerInputRequests(
      { base, inputRequests: { a: elicit } },
      new AbortController().signal,
    );
    await expect(failure).rejects.toMatchObject({
      rpcCode: -1,
      rpcMessage: 'User rejected',
      message: expect.stringContaining(
        'asked the caller for elicitation/create, which it refused (code -1)',
      ),
    });
  });

  it("stops waiting for the caller when the run's signal aborts, with its reason", async () => {
    const base = baseOf({
      capabilities: { elicitation: {} },
      request: () => new Promise(() => undefined),
    });
    const run = new AbortController();
    const failure = answerInputRequests({ base, inputRequests: { a: elicit } }, run.signal);
    const reason = new Error('run cancelled');
    run.abort(reason);
    await expect(failure).rejects.toBe(reason);
  });
});
