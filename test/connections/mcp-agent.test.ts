/**
 * Connection tools through `mountAgent`, driven by the real `ai` `generateText` with a mock model:
 * typed causes for the host, a safe envelope for the model, and the lifecycle run once per call.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  isAgentToolError,
  mountAgent,
  type ToolCallHooks,
  type ToolLifecycle,
} from '../../src/binding/index.js';
import {
  ConnectionAuthorizationRequiredError,
  defineMcpClientConnection,
  mountConnections,
} from '../../src/connections/index.js';
import {
  answerRpc,
  type FaultServer,
  mcpHandler,
  reply,
  startFaultServer,
} from '../fixtures/fault-server.js';
import { modelCalling, run, toolMessageOf } from '../support/agent-model.js';
import {
  activeResourceCounts,
  expectNoLeakedResources,
  trackUnhandledRejections,
} from '../support/leaks.js';

const CONNECTION_NAME = 'acme-billing-prod-7731';

let server: FaultServer;
let baseline: ReturnType<typeof activeResourceCounts>;
const unhandled = trackUnhandledRejections();
let toolCalls = 0;

beforeAll(async () => {
  baseline = activeResourceCounts();
  server = await startFaultServer(mcpHandler());
});
beforeEach(() => {
  toolCalls = 0;
  // The first tools/call is refused with 401; every later one is answered.
  server.setHandler(
    mcpHandler({
      'tools/call': (request) => {
        toolCalls += 1;
        return toolCalls === 1
          ? reply.status(401, `bad token for ${CONNECTION_NAME}`)
          : reply.json(200, answerRpc(request));
      },
    }),
  );
});
afterAll(async () => {
  await server.close();
  await expectNoLeakedResources(baseline);
  expect(unhandled).toEqual([]);
});

async function mountedTools(options: { hooks?: ToolCallHooks; lifecycle?: ToolLifecycle } = {}) {
  const connection = defineMcpClientConnection({
    name: CONNECTION_NAME,
    transport: { url: server.url },
    token: () => 'tok-agent',
  });
  return mountAgent({ runtimeTools: await mountConnections([connection]), ...options });
}

describe('connection tools through mountAgent and generateText', () => {
  it('keeps the typed 401 cause for the host and hides the connection name and URL from the model', async () => {
    const tools = await mountedTools();
    const model = modelCalling('echo', { message: 'hi' });
    const result = await run(model, tools);

    const toolError = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    const thrown = toolError?.type === 'tool-error' ? toolError.error : undefined;
    expect(isAgentToolError(thrown)).toBe(true);
    if (!isAgentToolError(thrown)) throw new Error('no AgentToolError');
    expect(thrown.cause).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(thrown.cause).toMatchObject({
      connectionName: CONNECTION_NAME,
      operation: 'tools/call',
      phase: 'call',
    });
    const envelope = {
      error: 'UNAUTHORIZED',
      details: {
        message: 'The connection requires authorization.',
        reason: 'authorization-required',
        operation: 'tools/call',
        phase: 'call',
      },
      retryable: false,
      hint: 'Obtain a new credential before retrying.',
    };
    expect(thrown.output).toEqual(envelope);
    expect(JSON.parse(thrown.message)).toEqual(envelope);

    const toolMessage = toolMessageOf(model);
    expect(toolMessage?.content).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolCallId: 'call-1',
        toolName: 'echo',
        output: { type: 'error-text', value: thrown.message },
      }),
    ]);
    const modelFacing = [
      thrown.message,
      JSON.stringify(thrown.output),
      JSON.stringify(toolMessage),
    ];
    for (const text of modelFacing) {
      expect(text).not.toContain(CONNECTION_NAME);
      expect(text).not.toContain(server.url);
      expect(text).not.toContain(server.origin);
      expect(text).not.toContain(`:${server.port}`);
      expect(text).not.toContain('bad token');
    }
    expect(result.text).toBe('done');
  });

  it('runs beforeHandle once per call and afterHandle only for the call that succeeded', async () => {
    const steps: string[] = [];
    const tools = await mountedTools({
      lifecycle: {
        beforeHandle: (ctx) => void steps.push(`beforeHandle ${ctx.source}`),
        afterHandle: () => void steps.push('afterHandle'),
      },
    });
    await run(modelCalling('echo', { message: 'first' }), tools);
    await run(modelCalling('echo', { message: 'second' }), tools);
    expect(steps).toEqual(['beforeHandle agent', 'beforeHandle agent', 'afterHandle']);
    expect(toolCalls).toBe(2);
  });

  it('hands onToolError and afterToolCall the same raw error object', async () => {
    const seen: { hook: string; error: unknown }[] = [];
    const tools = await mountedTools({
      hooks: {
        onToolError: (info) => void seen.push({ hook: 'onToolError', error: info.error }),
        afterToolCall: (info) => void seen.push({ hook: 'afterToolCall', error: info.error }),
      },
    });
    const result = await run(modelCalling('echo', { message: 'hi' }), tools);
    expect(seen.map((entry) => entry.hook)).toEqual(['onToolError', 'afterToolCall']);
    const [onError, after] = seen;
    expect(onError?.error).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(after?.error).toBe(onError?.error);
    const toolError = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    const thrown = toolError?.type === 'tool-error' ? toolError.error : undefined;
    expect(isAgentToolError(thrown) && thrown.cause).toBe(onError?.error);
  });

  it('hands a successful call result to the model in its next prompt', async () => {
    const tools = await mountedTools();
    await run(modelCalling('echo', { message: 'burn the first call' }), tools);
    const model = modelCalling('echo', { message: 'hello model' });
    const result = await run(model, tools);

    const upstream = { content: [{ type: 'text', text: 'Echo: hello model' }] };
    expect(result.steps[0]?.toolResults).toEqual([
      expect.objectContaining({ toolCallId: 'call-1', toolName: 'echo', output: upstream }),
    ]);
    expect(toolMessageOf(model)?.content).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolCallId: 'call-1',
        toolName: 'echo',
        output: { type: 'json', value: upstream },
      }),
    ]);
    expect(model.doGenerateCalls[0]?.tools).toEqual([
      expect.objectContaining({
        type: 'function',
        name: 'echo',
        description: 'Echoes the message back.',
        inputSchema: expect.objectContaining({
          type: 'object',
          properties: { message: { type: 'string' } },
          required: ['message'],
        }),
      }),
    ]);
    expect(result.text).toBe('done');
  });
});
