/**
 * The search meta-tools as a model meets them: through our mountAgent (the real `ai` package,
 * its own tool approval), through mountMcp (a real SDK client over Streamable HTTP), and through
 * a runner that is not ours (runTool on the definitions): call_tool runs the tool it names with
 * the hooks, approval, cancellation and typed errors of an inline call.
 */
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentApprovalPolicy,
  type AnyRuntimeToolDefinition,
  AppError,
  defineRuntimeTool,
  isAgentToolError,
  mountAgent,
  mountMcp,
  runTool,
  searchCatalog,
  toolInputJsonSchema,
} from '../../../src/binding/index.js';
import { modelCalling } from '../../support/agent-model.js';
import { type McpPeer, startMcpPeer } from '../../support/binding-mcp-peer.js';
import { createRecorder } from '../../support/binding-recorder.js';
import { expectNoOpenSockets } from '../../support/leaks.js';

const deployed: string[] = [];

const deploy = defineRuntimeTool({
  name: 'deploy',
  description: 'Deploys a service to production',
  identity: { serviceName: 'ops', action: 'deploy', method: 'POST' },
  input: z.object({ service: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: true },
  handler: ({ input }) => {
    deployed.push(input.service);
    return { deployed: input.service };
  },
});

const readConfig = defineRuntimeTool({
  name: 'read_config',
  description: 'Reads the configuration of a service',
  identity: { serviceName: 'ops', action: 'readConfig', method: 'GET' },
  input: z.object({ service: z.string() }),
  annotations: { readOnlyHint: true },
  handler: ({ input }) => ({ service: input.service, replicas: 3 }),
});

const waitForever = defineRuntimeTool({
  name: 'wait_forever',
  description: 'Waits until cancelled',
  identity: { serviceName: 'ops', action: 'waitForever', method: 'GET' },
  input: z.object({}),
  handler: ({ signal }) =>
    new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
});

/** 28 more tools, so the catalog (31) is over the auto line of 30. */
const widgets: AnyRuntimeToolDefinition[] = Array.from({ length: 28 }, (_, index) =>
  defineRuntimeTool({
    name: `widget_${String(index).padStart(2, '0')}`,
    description: `Reads widget number ${index}`,
    identity: { serviceName: 'widgets', action: `widget${index}`, method: 'GET' },
    input: z.object({}),
    handler: () => ({ widget: index }),
  }),
);

const catalog: AnyRuntimeToolDefinition[] = [deploy, readConfig, waitForever, ...widgets];

afterEach(() => {
  deployed.length = 0;
});

describe('catalog modes', () => {
  it("'auto' shows 31 tools as the three meta-tools, and 30 inline", () => {
    expect(Object.keys(mountAgent({ runtimeTools: catalog }))).toEqual([
      'search_tools',
      'describe_tools',
      'call_tool',
    ]);
    expect(Object.keys(mountAgent({ runtimeTools: catalog.slice(0, 30) }))).toHaveLength(30);
    expect(
      Object.keys(mountAgent({ runtimeTools: catalog, catalog: { mode: 'inline' } })),
    ).toHaveLength(31);
  });

  it("'auto' searches two tools whose definitions pass 10,000 estimated tokens", () => {
    const wide = defineRuntimeTool({
      name: 'wide',
      description: 'word '.repeat(12_000),
      identity: { serviceName: 'ops', action: 'wide', method: 'GET' },
      input: z.object({}),
      handler: () => null,
    });
    expect(Object.keys(mountAgent({ runtimeTools: [deploy, wide] }))).toEqual([
      'search_tools',
      'describe_tools',
      'call_tool',
    ]);
    expect(Object.keys(mountAgent({ runtimeTools: [deploy, readConfig] }))).toEqual([
      'deploy',
      'read_config',
    ]);
  });

  it('keeps read_result beside the meta-tools, out of the search', () => {
    const readResult = defineRuntimeTool({
      name: 'read_result',
      description: 'Reads a cut result page by page',
      identity: { serviceName: 'results', action: 'read', method: 'GET' },
      input: z.object({ id: z.string() }),
      handler: () => '',
    });
    expect(searchCatalog([...catalog, readResult]).map((tool) => tool.name)).toEqual([
      'search_tools',
      'describe_tools',
      'call_tool',
      'read_result',
    ]);
  });

  it('refuses an unknown mode at mount', () => {
    expect(() =>
      mountAgent({ runtimeTools: catalog, catalog: { mode: 'lazy' as 'auto' } }),
    ).toThrow("catalog.mode must be 'inline', 'search' or 'auto' (got lazy)");
  });
});

describe('search_tools and describe_tools', () => {
  const [search, describeTools] = searchCatalog(catalog);
  if (search === undefined || describeTools === undefined) throw new Error('no meta-tools');

  it("tells the model what the catalog holds and to search in the API's words", () => {
    expect(search.description).toBe(
      `Finds tools in a catalog of ${catalog.length} (ops (3), widgets (28)) by what you want to do, ` +
        'in the words an API would use for the thing and the act ("cancel order" finds more than ' +
        '"stop my purchase"; add other words if unsure); answers the best 8 (or limit): name, ' +
        'connection, one line. Then describe_tools gives their input schemas, and call_tool runs one.',
    );
    expect(toolInputJsonSchema(search)).toMatchObject({
      properties: {
        query: {
          description: "What you want to do: the API's words for the thing and the act find most",
        },
      },
    });
  });

  it('answers names, connection and one line, best first, 8 by default', async () => {
    const found = await runTool(
      search,
      { query: 'ship the api service to prod' },
      { source: 'internal' },
    );
    expect(found).toEqual({
      ok: true,
      data: {
        tools: [
          { name: 'deploy', connection: 'ops', description: 'Deploys a service to production' },
          {
            name: 'read_config',
            connection: 'ops',
            description: 'Reads the configuration of a service',
          },
        ],
      },
    });
    const widgetsFound = await runTool(search, { query: 'widget' }, { source: 'internal' });
    expect(widgetsFound.ok && (widgetsFound.data as { tools: unknown[] }).tools).toHaveLength(8);
    const three = await runTool(search, { query: 'widget', limit: 3 }, { source: 'internal' });
    expect(three.ok && (three.data as { tools: unknown[] }).tools).toHaveLength(3);
    expect(await runTool(search, { query: 'the of a' }, { source: 'internal' })).toEqual({
      ok: true,
      data: {
        tools: [],
        hint: 'No tool matched. Try other words: what the tool acts on (issue, repository, user) and what it does.',
      },
    });
  });

  it('gives input schemas by name, and close matches for a name it does not hold', async () => {
    const described = await runTool(
      describeTools,
      { names: ['deploy', 'deplyo'] },
      { source: 'internal' },
    );
    expect(described).toEqual({
      ok: true,
      data: {
        tools: [
          {
            name: 'deploy',
            connection: 'ops',
            description: 'Deploys a service to production',
            inputSchema: {
              $schema: 'http://json-schema.org/draft-07/schema#',
              type: 'object',
              properties: { service: { type: 'string' } },
              required: ['service'],
            },
          },
        ],
        notFound: [{ name: 'deplyo', closeMatches: ['deploy'] }],
      },
    });
    const none = await runTool(describeTools, { names: ['widget_99'] }, { source: 'internal' });
    expect(none).toEqual({
      ok: false,
      code: 'NOT_FOUND',
      details: {
        message: 'No tool named "widget_99" in this catalog',
        name: 'widget_99',
        // One edit away first, then two.
        closeMatches: ['widget_09', 'widget_19', 'widget_00'],
      },
      hint: 'Did you mean "widget_09", "widget_19", "widget_00"? Or search_tools to find the tool.',
      retryable: false,
    });
  });
});

/** Mounts the catalog on an agent and lets a scripted model call `call_tool` with `input`. */
async function callThroughAgent(
  input: unknown,
  approval: AgentApprovalPolicy = 'none',
  approve = true,
) {
  const recorder = createRecorder();
  const tools = mountAgent({ runtimeTools: catalog, approval, hooks: recorder.hooks });
  const model = modelCalling('call_tool', input);
  const prompt: ModelMessage[] = [{ role: 'user', content: 'go' }];
  const first = await generateText({ model, tools, messages: prompt, stopWhen: stepCountIs(2) });
  const requests = first.content.filter((part) => part.type === 'tool-approval-request');
  if (requests.length > 0) {
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
  }
  const toolMessage = model.doGenerateCalls[1]?.prompt.find((message) => message.role === 'tool');
  return { asked: requests.length, steps: recorder.steps, toolMessage };
}

describe('search_tools over an API whose own words are a phrase of the vocabulary', () => {
  // Spotify's API says "current user" where GitHub's says "authenticated user"; the vocabulary
  // reads "current user" as the latter, and must not lose the words the API itself uses.
  const spotifyLike = [
    "Get User's Profile",
    "Get Current User's Profile",
    "Get User's Playlists",
    "Get Current User's Playlists",
  ].map((title, index) =>
    defineRuntimeTool({
      name: `tool_${index}`,
      description: title,
      identity: { serviceName: 'music', action: `tool${index}`, method: 'GET' },
      input: z.object({}),
      handler: () => ({}),
    }),
  );
  const [search] = searchCatalog(spotifyLike);
  if (search === undefined) throw new Error('no search_tools');

  it.each([
    ["Get Current User's Profile", 'tool_1'],
    ["current user's playlists", 'tool_3'],
  ])('finds %j first', async (query, first) => {
    const found = await runTool(search, { query, limit: 3 }, { source: 'internal' });
    expect(found.ok && (found.data as { tools: { name: string }[] }).tools[0]?.name).toBe(first);
  });
});

describe('call_tool through mountAgent', () => {
  it('runs the named tool once; the hooks see that tool and its own arguments', async () => {
    const { asked, steps, toolMessage } = await callThroughAgent({
      name: 'deploy',
      arguments: { service: 'api' },
    });
    expect(asked).toBe(0);
    expect(deployed).toEqual(['api']);
    expect(steps).toEqual([
      { step: 'beforeToolCall', toolName: 'deploy', args: { service: 'api' } },
      {
        step: 'afterToolCall',
        toolName: 'deploy',
        args: { service: 'api' },
        result: { ok: true, data: { deployed: 'api' } },
      },
    ]);
    expect(toolMessage?.content).toEqual([
      expect.objectContaining({
        toolName: 'call_tool',
        output: { type: 'json', value: { deployed: 'api' } },
      }),
    ]);
  });

  it('asks for approval exactly when the policy asks for the named tool', async () => {
    const policy = { deploy: true };
    const denied = await callThroughAgent(
      { name: 'deploy', arguments: { service: 'api' } },
      policy,
      false,
    );
    expect(denied.asked).toBe(1);
    expect(deployed).toEqual([]);
    expect(denied.steps).toEqual([]);
    const approved = await callThroughAgent(
      { name: 'deploy', arguments: { service: 'web' } },
      policy,
      true,
    );
    expect(approved.asked).toBe(1);
    expect(deployed).toEqual(['web']);
    const readOnly = await callThroughAgent(
      { name: 'read_config', arguments: { service: 'api' } },
      'destructive',
    );
    expect(readOnly.asked).toBe(0);
    const destructive = await callThroughAgent(
      { name: 'deploy', arguments: { service: 'api' } },
      'destructive',
      false,
    );
    expect(destructive.asked).toBe(1);
  });

  it("types the named tool's failures as inline: invalid arguments, an unknown name", async () => {
    const tools = mountAgent({ runtimeTools: catalog });
    const options = { toolCallId: 'c-1' };
    const invalid = await tools.call_tool
      ?.execute({ name: 'deploy', arguments: { service: 42 } }, options)
      .catch((error: unknown) => error);
    expect(isAgentToolError(invalid) && invalid.output.error).toBe('VALIDATION_ERROR');
    const unknown = await tools.call_tool
      ?.execute({ name: 'deploi', arguments: {} }, options)
      .catch((error: unknown) => error);
    expect(isAgentToolError(unknown) && unknown.output).toEqual({
      error: 'NOT_FOUND',
      details: {
        message: 'No tool named "deploi" in this catalog',
        name: 'deploi',
        closeMatches: ['deploy'],
      },
      retryable: false,
      hint: 'Did you mean "deploy"? Or search_tools to find the tool.',
    });
    expect(deployed).toEqual([]);
  });

  it('ends CANCELLED when the caller aborts the named tool, with the caller reason kept', async () => {
    const tools = mountAgent({ runtimeTools: catalog });
    const controller = new AbortController();
    const pending = tools.call_tool
      ?.execute({ name: 'wait_forever' }, { toolCallId: 'c-2', abortSignal: controller.signal })
      .catch((error: unknown) => error);
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    const error = await pending;
    expect(isAgentToolError(error) && error.output.error).toBe('CANCELLED');
    expect(isAgentToolError(error) && error.cause).toBe(reason);
  });
});

describe('call_tool mounted by a runner that is not ours', () => {
  it("runs the named tool under searchCatalog's hooks and answers its typed failure", async () => {
    const outer = createRecorder();
    const inner = createRecorder();
    const call = searchCatalog(catalog, { hooks: inner.hooks })[2];
    if (call === undefined) throw new Error('no call_tool');
    const ran = await runTool(
      call,
      { name: 'read_config', arguments: { service: 'api' } },
      { source: 'agent', transport: 'AGENT', hooks: outer.hooks },
    );
    expect(ran).toEqual({ ok: true, data: { service: 'api', replicas: 3 } });
    expect(outer.steps.map((step) => step.toolName)).toEqual(['call_tool', 'call_tool']);
    expect(inner.steps.map((step) => step.toolName)).toEqual(['read_config', 'read_config']);
    const refused = await runTool(
      call,
      { name: 'read_config', arguments: {} },
      { source: 'agent', transport: 'AGENT' },
    );
    expect(refused).toEqual(expect.objectContaining({ ok: false, code: 'VALIDATION_ERROR' }));
  });

  it('rethrows a typed AppError of the named tool as it was', async () => {
    const failing = defineRuntimeTool({
      name: 'failing',
      description: 'Fails',
      identity: { serviceName: 'ops', action: 'failing', method: 'GET' },
      input: z.object({}),
      handler: () => {
        throw new AppError('CONFLICT', { status: 409, message: 'busy', hint: 'later' });
      },
    });
    const call = searchCatalog([failing])[2];
    if (call === undefined) throw new Error('no call_tool');
    expect(await runTool(call, { name: 'failing' }, { source: 'internal' })).toEqual({
      ok: false,
      code: 'CONFLICT',
      details: { message: 'busy' },
      hint: 'later',
      retryable: false,
    });
  });
});

describe('call_tool through mountMcp', () => {
  let peer: McpPeer | undefined;
  afterAll(async () => {
    await peer?.stop();
    await expectNoOpenSockets();
  });

  it('lists the three meta-tools and runs the named tool with the mount hooks', async () => {
    const recorder = createRecorder();
    peer = await startMcpPeer((server) => mountMcp(server, catalog, { hooks: recorder.hooks }));
    const { tools } = await peer.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search_tools', 'describe_tools', 'call_tool']);
    const result = await peer.client.callTool({
      name: 'call_tool',
      arguments: { name: 'deploy', arguments: { service: 'db' } },
    });
    expect(result).toEqual({
      content: [{ type: 'text', text: '{"deployed":"db"}' }],
      structuredContent: { deployed: 'db' },
    });
    expect(recorder.steps.map((step) => step.toolName)).toEqual(['deploy', 'deploy']);
    expect(deployed).toEqual(['db']);
  });
});
