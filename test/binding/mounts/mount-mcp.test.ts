import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AppError,
  defineRuntimeTool,
  type McpMountOptions,
  mountMcp,
  toolCauseFromResult,
} from '../../../src/binding/index.js';
import { type McpPeer, startMcpPeer } from '../../support/binding-mcp-peer.js';
import { createRecorder } from '../../support/binding-recorder.js';
import { expectNoOpenSockets } from '../../support/leaks.js';

const SECRET = 'pg://admin:hunter2@db.internal';

function deferred<T = void>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const greet = defineRuntimeTool({
  name: 'greet',
  description: 'Greets someone',
  identity: { serviceName: 'demo', action: 'greet', method: 'GET' },
  input: z.object({ name: z.string().describe('Who to greet'), loud: z.boolean().optional() }),
  output: z.object({ greeting: z.string() }),
  annotations: { readOnlyHint: true },
  handler: (ctx) => ({ greeting: `Hello, ${ctx.input.name}${ctx.input.loud ? '!' : ''}` }),
});

const explode = defineRuntimeTool({
  name: 'explode',
  description: 'Always fails',
  identity: { serviceName: 'demo', action: 'explode', method: 'POST' },
  input: z.object({}),
  handler: () => {
    throw new Error(`cannot reach ${SECRET}`);
  },
});

const agentOnly = defineRuntimeTool({
  name: 'agent_only',
  description: 'Not on MCP',
  identity: { serviceName: 'demo', action: 'agentOnly', method: 'GET' },
  input: z.object({}),
  transports: ['AGENT'],
  handler: () => null,
});

let peer: McpPeer | undefined;

afterEach(async () => {
  await peer?.stop();
  peer = undefined;
});

// Closed handles leave the resource list a few loop turns later; poll under a generous deadline.
afterAll(expectNoOpenSockets);

async function connect(tools: Parameters<typeof mountMcp>[1], options?: McpMountOptions) {
  peer = await startMcpPeer((server) => mountMcp(server, tools, options));
  return peer.client;
}

describe('mountMcp with a real SDK client over Streamable HTTP', () => {
  it('lists MCP tools with the JSON Schema of their zod input and their annotations', async () => {
    const client = await connect([greet, explode, agentOnly]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['greet', 'explode']);
    expect(tools[0]).toEqual(
      expect.objectContaining({
        name: 'greet',
        description: 'Greets someone',
        annotations: { readOnlyHint: true },
        inputSchema: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: {
            name: { type: 'string', description: 'Who to greet' },
            loud: { type: 'boolean' },
          },
          required: ['name'],
        },
      }),
    );
  });

  it('returns structuredContent and JSON text on success', async () => {
    const client = await connect([greet]);
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: '{"greeting":"Hello, Ada"}' }],
      structuredContent: { greeting: 'Hello, Ada' },
    });
  });

  it('returns the present.mcp presentation without structuredContent', async () => {
    const presented = defineRuntimeTool({
      ...greet,
      present: { mcp: (output) => ({ content: [{ type: 'text', text: output.greeting }] }) },
    });
    const client = await connect([presented]);
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'Hello, Ada' }] });
  });

  it('keeps the structuredContent a present.mcp presentation carries', async () => {
    const presented = defineRuntimeTool({
      ...greet,
      present: {
        mcp: (output) => ({
          content: [{ type: 'text', text: output.greeting }],
          structuredContent: { said: output.greeting },
        }),
      },
    });
    const client = await connect([presented]);
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Hello, Ada' }],
      structuredContent: { said: 'Hello, Ada' },
    });
  });

  describe('a definition with outputJsonSchema', () => {
    const OUTPUT = {
      type: 'object',
      properties: { said: { type: 'string' } },
      required: ['said'],
    };
    const withOutput = (structured: boolean) =>
      defineRuntimeTool({
        ...greet,
        outputJsonSchema: OUTPUT,
        present: {
          mcp: (output) => ({
            content: [{ type: 'text', text: output.greeting }],
            ...(structured ? { structuredContent: { said: output.greeting } } : {}),
          }),
        },
      });

    it('advertises it as the outputSchema; the SDK client accepts a conforming result', async () => {
      const client = await connect([withOutput(true)]);
      const { tools } = await client.listTools();
      expect(tools[0]?.outputSchema).toEqual({
        $schema: 'http://json-schema.org/draft-07/schema#',
        ...OUTPUT,
      });
      const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      expect(result.structuredContent).toEqual({ said: 'Hello, Ada' });
    });

    it('answers a success without structuredContent with the safe INTERNAL_SERVER_ERROR envelope', async () => {
      const client = await connect([withOutput(false)]);
      await client.listTools();
      const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      expect(result).toEqual({
        content: [
          {
            type: 'text',
            text: '{"error":"INTERNAL_SERVER_ERROR","details":{"message":"Internal server error"},"retryable":false}',
          },
        ],
        isError: true,
      });
    });

    it('does not advertise a zod output of a definition without it', async () => {
      const client = await connect([greet]);
      const { tools } = await client.listTools();
      expect(tools[0]?.outputSchema).toBeUndefined();
    });
  });

  it('returns the scrubbed envelope with isError on failure, and the raw error to hooks', async () => {
    const recorder = createRecorder();
    const client = await connect([explode], { hooks: recorder.hooks });
    const result = await client.callTool({ name: 'explode', arguments: {} });
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: '{"error":"INTERNAL_SERVER_ERROR","details":{"message":"Internal server error"},"retryable":false}',
        },
      ],
      isError: true,
    });
    expect(JSON.stringify(result)).not.toContain('hunter2');
    const onToolError = recorder.steps.find((entry) => entry.step === 'onToolError');
    expect(onToolError?.error).toBeInstanceOf(Error);
    expect(String((onToolError?.error as Error | undefined)?.message)).toContain(SECRET);
  });

  it('returns an AppError envelope with hint and declared retryable', async () => {
    const busy = defineRuntimeTool({
      ...explode,
      handler: () => {
        throw new AppError('UPSTREAM_BUSY', { status: 503, hint: 'Try again in a minute' });
      },
    });
    const client = await connect([busy]);
    const result = await client.callTool({ name: 'explode', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '')).toEqual({
      error: 'UPSTREAM_BUSY',
      details: { message: 'UPSTREAM_BUSY' },
      retryable: true,
      hint: 'Try again in a minute',
    });
  });

  it('answers invalid arguments with our VALIDATION_ERROR envelope after beforeToolCall', async () => {
    const recorder = createRecorder();
    const client = await connect([greet], { hooks: recorder.hooks, lifecycle: recorder.lifecycle });
    const result = await client.callTool({ name: 'greet', arguments: { name: 7 } });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '')).toEqual({
      error: 'VALIDATION_ERROR',
      details: {
        message: 'Invalid tool input',
        issues: [
          {
            path: ['name'],
            message: 'Invalid input: expected string, received number',
            code: 'invalid_type',
          },
        ],
      },
      retryable: false,
    });
    expect(recorder.steps.map((entry) => entry.step)).toEqual(['beforeToolCall', 'afterToolCall']);
    expect(recorder.steps[0]?.args).toEqual({ name: 7 });
  });

  it('lets beforeToolCall repair arguments the SDK would otherwise have refused', async () => {
    const client = await connect([greet], {
      hooks: {
        beforeToolCall: (info) => ({ name: String((info.args as { name: unknown }).name) }),
      },
    });
    const result = await client.callTool({ name: 'greet', arguments: { name: 7 } });
    expect(result.structuredContent).toEqual({ greeting: 'Hello, 7' });
  });

  it('gives the handler the source, the request id and the host context', async () => {
    const seen: Record<string, unknown>[] = [];
    const probe = defineRuntimeTool({
      ...agentOnly,
      name: 'probe',
      transports: ['MCP'],
      handler: (ctx) => {
        seen.push({ source: ctx.source, tenant: ctx.tenant, toolCallId: ctx.toolCallId });
        return null;
      },
    });
    const client = await connect([probe], { context: { tenant: 't9' } });
    const result = await client.callTool({ name: 'probe', arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: 'null' }] });
    expect(seen).toEqual([{ source: 'mcp', tenant: 't9', toolCallId: expect.any(String) }]);
  });

  it('aborts the handler signal when the client cancels the request', async () => {
    const started = deferred();
    const aborted = deferred<unknown>();
    const finished = deferred<unknown>();
    const waiting = defineRuntimeTool({
      name: 'wait_forever',
      description: 'Waits until cancelled',
      identity: { serviceName: 'demo', action: 'wait', method: 'GET' },
      input: z.object({}),
      handler: (ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener(
            'abort',
            () => {
              aborted.resolve(ctx.signal.reason);
              reject(ctx.signal.reason);
            },
            { once: true },
          );
          started.resolve();
        }),
    });
    const client = await connect([waiting], {
      hooks: { afterToolCall: (info) => finished.resolve(info.result) },
    });
    const controller = new AbortController();
    const pending = client.callTool({ name: 'wait_forever', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    const outcome = pending.then(
      () => 'resolved',
      () => 'rejected',
    );
    await started.promise;
    controller.abort(new Error('user cancelled'));

    expect(await outcome).toBe('rejected');
    expect(await aborted.promise).toBeDefined();
    const result = (await finished.promise) as Parameters<typeof toolCauseFromResult>[0];
    expect(result).toEqual(expect.objectContaining({ ok: false, code: 'CANCELLED' }));
    expect(toolCauseFromResult(result)).toBe(await aborted.promise);
  });
});

describe('mountMcp registration', () => {
  it('refuses duplicate MCP names, naming both sources', async () => {
    const twin = defineRuntimeTool({
      ...greet,
      identity: { serviceName: 'other', action: 'hello', method: 'GET' },
    });
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const server = new McpServer({ name: 'x', version: '1.0.0' });
    expect(() => mountMcp(server, [greet, twin])).toThrow(
      'Duplicate MCP tool name "greet" across mounted operations: demo.greet, other.hello',
    );
  });

  it('checks an array that may still change on every mount, so a duplicate added later is refused', async () => {
    const twin = defineRuntimeTool({
      ...greet,
      identity: { serviceName: 'other', action: 'hello', method: 'GET' },
    });
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const tools = [greet];
    mountMcp(new McpServer({ name: 'x', version: '1.0.0' }), tools);
    tools.push(twin);
    expect(() => mountMcp(new McpServer({ name: 'x', version: '1.0.0' }), tools)).toThrow(
      'Duplicate MCP tool name "greet" across mounted operations: demo.greet, other.hello',
    );
  });
});
