/**
 * Host controls over mounted tools: MCP annotations carried from a real SDK server through the
 * mount and out again through `mountMcp`, OpenAPI hints derived from the method, and approval on
 * `mountAgent` driven by the real `ai` package's own tool approval.
 */
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentApprovalPolicy,
  buildToolManifest,
  mountAgent,
  mountMcp,
} from '../../src/binding/index.js';
import {
  defineMcpClientConnection,
  defineOpenApiConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { modelCalling } from '../support/agent-model.js';
import { type McpPeer, startMcpPeer } from '../support/binding-mcp-peer.js';

let upstream: McpPeer;
let upstreamCalls: string[] = [];
let hookCalls: string[] = [];

beforeAll(async () => {
  upstream = await startMcpPeer((server) => {
    server.registerTool(
      'deleteRecord',
      {
        title: 'Delete a record',
        description: 'Deletes one record',
        inputSchema: { id: z.string() },
        annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
      },
      async ({ id }) => {
        upstreamCalls.push(`deleteRecord ${id}`);
        return { content: [{ type: 'text', text: `deleted ${id}` }] };
      },
    );
    server.registerTool(
      'readRecord',
      {
        description: 'Reads one record',
        inputSchema: { id: z.string() },
        annotations: { title: 'Read a record', readOnlyHint: true },
      },
      async ({ id }) => {
        upstreamCalls.push(`readRecord ${id}`);
        return { content: [{ type: 'text', text: `record ${id}` }] };
      },
    );
  });
});
beforeEach(() => {
  upstreamCalls = [];
  hookCalls = [];
});
afterAll(async () => {
  await upstream.stop();
});

function mountUpstream() {
  return mountConnections([
    defineMcpClientConnection({ name: 'records', transport: { url: upstream.url } }),
  ]);
}

describe('annotations', () => {
  it('keep the title and hints of a real SDK server tool on the mounted definition', async () => {
    const tools = await mountUpstream();
    expect(tools.map((tool) => [tool.name, tool.annotations])).toEqual([
      [
        'deleteRecord',
        {
          title: 'Delete a record',
          destructiveHint: true,
          idempotentHint: true,
          openWorldHint: false,
        },
      ],
      ['readRecord', { title: 'Read a record', readOnlyHint: true }],
    ]);
    expect(buildToolManifest(tools, { transport: 'MCP' })[1]?.annotations).toEqual({
      title: 'Read a record',
      readOnlyHint: true,
    });
  });

  it('survive mountMcp to a real SDK client listTools', async () => {
    const tools = await mountUpstream();
    const gateway = await startMcpPeer((server) => mountMcp(server, tools));
    try {
      const listed = await gateway.client.listTools();
      expect(listed.tools.map((tool) => [tool.name, tool.title, tool.annotations])).toEqual([
        [
          'deleteRecord',
          'Delete a record',
          {
            title: 'Delete a record',
            destructiveHint: true,
            idempotentHint: true,
            openWorldHint: false,
          },
        ],
        ['readRecord', 'Read a record', { title: 'Read a record', readOnlyHint: true }],
      ]);
    } finally {
      await gateway.stop();
    }
  });

  it('derive OpenAPI hints from the method, with the summary as the title', async () => {
    const operations = Object.fromEntries(
      ['get', 'head', 'post', 'put', 'patch', 'delete'].map((method) => [
        method,
        { operationId: method, ...(method === 'get' ? { summary: 'Fetch it' } : {}) },
      ]),
    );
    const tools = await mountConnections([
      defineOpenApiConnection({
        name: 'api',
        spec: {
          openapi: '3.1.0',
          servers: [{ url: 'https://api.example.com' }],
          paths: { '/x': operations },
        },
      }),
    ]);
    expect(
      Object.fromEntries(tools.map((tool) => [tool.identity.method, tool.annotations])),
    ).toEqual({
      GET: { title: 'Fetch it', readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      HEAD: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      POST: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
      PUT: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
      PATCH: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
      DELETE: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      },
    });
  });
});

/**
 * Runs a call to `toolName` under `approval`; when the SDK asks for approval, answers it with
 * `approve` and continues. Returns what was asked and what the model saw after the call.
 */
async function callWithApproval(
  toolName: string,
  approval: AgentApprovalPolicy,
  approve: boolean,
  context?: Record<string, unknown>,
) {
  const tools = mountAgent({
    runtimeTools: await mountUpstream(),
    approval,
    hooks: { beforeToolCall: ({ toolName }) => void hookCalls.push(toolName) },
    ...(context === undefined ? {} : { context }),
  });
  const model = modelCalling(toolName, { id: 'r-7' });
  const prompt: ModelMessage[] = [{ role: 'user', content: 'go' }];
  const first = await generateText({ model, tools, messages: prompt, stopWhen: stepCountIs(2) });
  const requests = first.content.filter((part) => part.type === 'tool-approval-request');
  if (requests.length === 0) {
    return {
      asked: 0,
      toolMessage: model.doGenerateCalls[1]?.prompt.find((m) => m.role === 'tool'),
    };
  }
  const approvalId = (requests[0] as { approvalId: string }).approvalId;
  await generateText({
    model,
    tools,
    messages: [
      ...prompt,
      ...first.response.messages,
      {
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId, approved: approve }],
      },
    ],
    stopWhen: stepCountIs(2),
  });
  return {
    asked: requests.length,
    toolMessage: model.doGenerateCalls[1]?.prompt.find((m) => m.role === 'tool'),
  };
}

describe('approval on mountAgent', () => {
  it("asks for a destructive tool under 'destructive'; approving runs it exactly once", async () => {
    const { asked, toolMessage } = await callWithApproval('deleteRecord', 'destructive', true);
    expect(asked).toBe(1);
    expect(upstreamCalls).toEqual(['deleteRecord r-7']);
    expect(hookCalls).toEqual(['deleteRecord']);
    expect(JSON.stringify(toolMessage)).toContain('deleted r-7');
  });

  it('sends nothing upstream when the call is denied, and the model receives the denial', async () => {
    const { asked, toolMessage } = await callWithApproval('deleteRecord', 'destructive', false);
    expect(asked).toBe(1);
    expect(upstreamCalls).toEqual([]);
    expect(hookCalls).toEqual([]);
    expect(toolMessage?.content).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolName: 'deleteRecord',
        output: expect.objectContaining({ type: 'execution-denied' }),
      }),
    ]);
  });

  it('runs a read-only tool without asking', async () => {
    const { asked } = await callWithApproval('readRecord', 'destructive', true);
    expect(asked).toBe(0);
    expect(upstreamCalls).toEqual(['readRecord r-7']);
  });

  it("asks for every tool under 'all' and for the names a map selects", async () => {
    expect((await callWithApproval('readRecord', 'all', true)).asked).toBe(1);
    expect((await callWithApproval('readRecord', { readRecord: true }, true)).asked).toBe(1);
    expect((await callWithApproval('deleteRecord', { readRecord: true }, true)).asked).toBe(0);
    expect((await callWithApproval('deleteRecord', 'none', true)).asked).toBe(0);
  });

  it('asks the policy function with the tool, the parsed input and the host context', async () => {
    const seen: unknown[] = [];
    const policy: AgentApprovalPolicy = (tool, input, context) => {
      seen.push([tool.name, input, context]);
      return tool.name === 'deleteRecord';
    };
    expect((await callWithApproval('deleteRecord', policy, true, { user: 'ada' })).asked).toBe(1);
    expect((await callWithApproval('readRecord', policy, true, { user: 'ada' })).asked).toBe(0);
    // The SDK asks again when it resumes with the approval response, before it executes.
    expect(seen).toEqual([
      ['deleteRecord', { id: 'r-7' }, { user: 'ada' }],
      ['deleteRecord', { id: 'r-7' }, { user: 'ada' }],
      ['readRecord', { id: 'r-7' }, { user: 'ada' }],
    ]);
  });

  it('asks for approval when the policy function throws (fail closed)', async () => {
    const policy: AgentApprovalPolicy = () => {
      throw new Error('policy store down');
    };
    const { asked } = await callWithApproval('readRecord', policy, false);
    expect(asked).toBe(1);
    expect(upstreamCalls).toEqual([]);
  });

  it('refuses a malformed policy at mount', async () => {
    const runtimeTools = await mountUpstream();
    expect(() => mountAgent({ runtimeTools, approval: 'some' as AgentApprovalPolicy })).toThrow(
      "mountAgent: approval must be 'none', 'all', 'destructive', a map of tool names to booleans, or a function",
    );
  });
});
