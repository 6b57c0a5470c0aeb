/**
 * An MCP 2026-07-28 server on the v2 SDK (`createMcpHandler`, a `McpServer` per request, 2025
 * clients served stateless) with the tools the conformance suite's 2026-07-28 server scenarios
 * call: the content and progress tools, the JSON Schema 2020-12 tool, and the `input_required`
 * tools (elicitation, sampling, roots, several at once, several rounds, a sealed state). Run
 * in front of it, a gateway shows what it keeps of each scenario.
 * Run it: `node --import tsx conformance/server-2026.ts [port]`.
 */
import { pathToFileURL } from 'node:url';
import {
  acceptedContent,
  type CallToolResult,
  createMcpHandler,
  createRequestStateCodec,
  fromJsonSchema,
  inputRequired,
  McpServer,
  ResourceTemplate,
  type ServerNotifier,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { serveWebHandler } from '../test/fixtures/http-helpers.js';
import { CONTENT_TOOLS } from './content-tools.js';

const SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
/** The input schema the `json-schema-2020-12` scenario checks, keyword for keyword. */
const JSON_SCHEMA_TOOL_INPUT = {
  $schema: SCHEMA_2020_12,
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a promise.
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as const;

const NO_ARGS = z.object({});
/** The answers the elicitations below ask for. */
const NAME_ANSWER = z.object({ name: z.string() });
const COLOR_ANSWER = z.object({ color: z.string() });
const CONTEXT_ANSWER = z.object({ context: z.string() });
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An elicitation asking for one string field. */
function askFor(message: string, field: string) {
  return {
    method: 'elicitation/create' as const,
    params: {
      message,
      requestedSchema: {
        type: 'object' as const,
        properties: { [field]: { type: 'string' as const } },
        required: [field],
      },
    },
  };
}

/** The text of a sampling answer, when it is one. */
function sampledText(answer: unknown): string | undefined {
  const content = (answer as { content?: { type?: unknown; text?: unknown } } | undefined)?.content;
  return content?.type === 'text' && typeof content.text === 'string' ? content.text : undefined;
}

type Codec = ReturnType<typeof createRequestStateCodec<Record<string, unknown>>>;

function registerContentTools(server: McpServer): void {
  for (const [name, tool] of Object.entries(CONTENT_TOOLS)) {
    server.registerTool(
      name,
      { description: tool.description, inputSchema: NO_ARGS },
      async () => structuredClone(tool.result) as CallToolResult,
    );
  }
  server.registerTool(
    'test_tool_with_progress',
    { description: 'Reports progress', inputSchema: NO_ARGS },
    async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (const [index, progress] of [0, 50, 100].entries()) {
        if (index > 0) await pause(50);
        if (progressToken === undefined) continue;
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress, total: 100 },
        });
      }
      return text('Progress reported');
    },
  );
  server.registerTool(
    'json_schema_2020_12_tool',
    {
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: fromJsonSchema(JSON_SCHEMA_TOOL_INPUT),
    },
    async (args) => text(`Received ${JSON.stringify(args)}`),
  );
}

function registerInputTools(server: McpServer, codec: Codec): void {
  server.registerTool(
    'test_input_required_result_elicitation',
    { description: 'Asks for a name', inputSchema: NO_ARGS },
    async (_args, ctx) => {
      const name = acceptedContent(ctx.mcpReq.inputResponses, 'user_name', NAME_ANSWER)?.name;
      if (typeof name !== 'string') {
        return inputRequired({
          inputRequests: { user_name: askFor('What is your name?', 'name') },
        });
      }
      return text(`Hello, ${name}!`);
    },
  );
  server.registerTool(
    'test_input_required_result_sampling',
    { description: 'Asks the client to sample', inputSchema: NO_ARGS },
    async (_args, ctx) => {
      const sampled = sampledText(ctx.mcpReq.inputResponses?.capital_question);
      if (sampled === undefined) {
        return inputRequired({
          inputRequests: {
            capital_question: {
              method: 'sampling/createMessage',
              params: {
                messages: [
                  {
                    role: 'user',
                    content: { type: 'text', text: 'What is the capital of France?' },
                  },
                ],
                maxTokens: 100,
              },
            },
          },
        });
      }
      return text(`The model answered: ${sampled}`);
    },
  );
  server.registerTool(
    'test_input_required_result_list_roots',
    { description: "Lists the client's roots", inputSchema: NO_ARGS },
    async (_args, ctx) => {
      const roots = (ctx.mcpReq.inputResponses?.client_roots as { roots?: unknown } | undefined)
        ?.roots;
      if (!Array.isArray(roots)) {
        return inputRequired({
          inputRequests: { client_roots: { method: 'roots/list', params: {} } },
        });
      }
      return text(`Roots: ${JSON.stringify(roots)}`);
    },
  );
  server.registerTool(
    'test_input_required_result_request_state',
    { description: 'Round-trips its state', inputSchema: NO_ARGS },
    async (_args, ctx) => {
      const state = ctx.mcpReq.requestState<Record<string, unknown>>();
      if (ctx.mcpReq.inputResponses?.confirm === undefined || state?.step !== 'confirm') {
        return inputRequired({
          inputRequests: {
            confirm: {
              method: 'elicitation/create',
              params: {
                message: 'Please confirm',
                requestedSchema: {
                  type: 'object',
                  properties: { ok: { type: 'boolean' } },
                  required: ['ok'],
                },
              },
            },
          },
          requestState: await codec.mint({ step: 'confirm' }),
        });
      }
      return text('state-ok: the request state came back intact');
    },
  );
  server.registerTool(
    'test_input_required_result_multiple_inputs',
    { description: 'Asks three things at once', inputSchema: NO_ARGS },
    async (_args, ctx) => {
      const responses = ctx.mcpReq.inputResponses ?? {};
      const state = ctx.mcpReq.requestState<Record<string, unknown>>();
      const complete = ['user_name', 'greeting', 'client_roots'].every((key) => key in responses);
      if (!complete || state?.step !== 'all') {
        return inputRequired({
          inputRequests: {
            user_name: askFor('What is your name?', 'name'),
            greeting: {
              method: 'sampling/createMessage',
              params: {
                messages: [
                  { role: 'user', content: { type: 'text', text: 'Generate a greeting' } },
                ],
                maxTokens: 50,
              },
            },
            client_roots: { method: 'roots/list', params: {} },
          },
          requestState: await codec.mint({ step: 'all' }),
        });
      }
      return text('All three answers received');
    },
  );
  server.registerTool(
    'test_input_required_result_multi_round',
    { description: 'Asks in two rounds', inputSchema: NO_ARGS },
    async (_args, ctx) => {
      const responses = ctx.mcpReq.inputResponses ?? {};
      const state = ctx.mcpReq.requestState<Record<string, unknown>>();
      if (state?.round === 2 && responses.step2 !== undefined) {
        return text(
          `Done: ${JSON.stringify(acceptedContent(responses, 'step2', COLOR_ANSWER) ?? {})}`,
        );
      }
      if (state?.round === 1 && responses.step1 !== undefined) {
        return inputRequired({
          inputRequests: { step2: askFor('Step 2: What is your favorite color?', 'color') },
          requestState: await codec.mint({ round: 2 }),
        });
      }
      return inputRequired({
        inputRequests: { step1: askFor('Step 1: What is your name?', 'name') },
        requestState: await codec.mint({ round: 1 }),
      });
    },
  );
  server.registerTool(
    'test_input_required_result_tampered_state',
    { description: 'Seals its state', inputSchema: NO_ARGS },
    async (_args, ctx) => {
      const state = ctx.mcpReq.requestState<Record<string, unknown>>();
      if (state?.sealed !== true) {
        return inputRequired({
          inputRequests: { confirm: askFor('Continue?', 'ok') },
          requestState: await codec.mint({ sealed: true }),
        });
      }
      return text('The sealed state came back intact');
    },
  );
  server.registerTool(
    'test_input_required_result_capabilities',
    { description: 'Asks only what the client declared', inputSchema: NO_ARGS },
    async (_args, ctx) => {
      if (ctx.mcpReq.inputResponses !== undefined) return text('Answered');
      const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
      const declared = (envelope['io.modelcontextprotocol/clientCapabilities'] ?? {}) as Record<
        string,
        unknown
      >;
      const inputRequests: Record<string, ReturnType<typeof askFor> | object> = {};
      if (declared.elicitation !== undefined) inputRequests.name = askFor('Your name?', 'name');
      if (declared.sampling !== undefined) {
        inputRequests.haiku = {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'A haiku' } }],
            maxTokens: 50,
          },
        };
      }
      if (Object.keys(inputRequests).length === 0) return text('Nothing to ask');
      return inputRequired({ inputRequests: inputRequests as never });
    },
  );
  // Needs sampling, which the request must declare: the SDK refuses it -32021 otherwise.
  server.registerTool(
    'test_missing_capability',
    { description: 'Asks the client to sample', inputSchema: NO_ARGS },
    async (_args, ctx) => {
      if (ctx.mcpReq.inputResponses !== undefined) return text('Sampled');
      return inputRequired({
        inputRequests: {
          sample: {
            method: 'sampling/createMessage',
            params: {
              messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
              maxTokens: 10,
            },
          },
        },
      });
    },
  );
}

/**
 * The server scenario's diagnostics (`server-stateless`): the hooks that announce a tool and a
 * prompt list change, a tool that logs (sent only to a request that asks for a level) and one that
 * asks for input on its stream (as `input_required`), and a prompt and resources, so every
 * cacheable list and a non-tool `input_required` exist.
 */
function registerDiagnostics(server: McpServer, notify: () => ServerNotifier): void {
  // The scenario's hooks for a list change: each tells the open `subscriptions/listen` streams
  // that the tool (or prompt) list changed, as a server whose list changed would.
  server.registerTool(
    'test_trigger_tool_change',
    { description: 'Announces a tool list change', inputSchema: NO_ARGS },
    async () => {
      notify().toolsChanged();
      return text('Tool list changed');
    },
  );
  server.registerTool(
    'test_trigger_prompt_change',
    { description: 'Announces a prompt list change', inputSchema: NO_ARGS },
    async () => {
      notify().promptsChanged();
      return text('Prompt list changed');
    },
  );
  server.registerTool(
    'test_logging_tool',
    { description: 'Logs a line', inputSchema: NO_ARGS },
    async (_args, ctx) => {
      await ctx.mcpReq.log('info', 'the tool ran', 'conformance');
      return text('Logged');
    },
  );
  server.registerTool(
    'test_streaming_elicitation',
    { description: 'Asks on its own stream', inputSchema: NO_ARGS },
    async (_args, ctx) => {
      if (ctx.mcpReq.inputResponses !== undefined) return text('Answered');
      const progressToken = ctx.mcpReq._meta?.progressToken;
      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress: 1, total: 2 },
        });
      }
      return inputRequired({ inputRequests: { answer: askFor('Your answer?', 'answer') } });
    },
  );
  server.registerPrompt(
    'test_input_required_result_prompt',
    { description: 'A prompt that needs context first' },
    async (ctx) => {
      const context = acceptedContent(
        ctx.mcpReq.inputResponses,
        'user_context',
        CONTEXT_ANSWER,
      )?.context;
      if (typeof context !== 'string') {
        return inputRequired({
          inputRequests: {
            user_context: askFor('What context should the prompt use?', 'context'),
          },
        });
      }
      return {
        messages: [{ role: 'user', content: { type: 'text', text: `Context: ${context}` } }],
      };
    },
  );
  server.registerResource('readme', 'test://readme', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'A resource.' }],
  }));
  server.registerResource(
    'item',
    new ResourceTemplate('test://items/{id}', { list: undefined }),
    { mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, text: 'An item.' }] }),
  );
}

/** A running server. */
export interface Server2026 {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the server on `port` (0: the OS picks); its MCP endpoint is `/mcp`. */
export async function startServer2026(port = 0): Promise<Server2026> {
  const codec = createRequestStateCodec<Record<string, unknown>>({
    key: new TextEncoder().encode('conformance-2026-request-state-key'),
  });
  const handler = createMcpHandler(() => {
    const server = new McpServer(
      { name: 'stitchkit-conformance-2026', version: '1.0.0' },
      { capabilities: { logging: {} }, requestState: { verify: codec.verify } },
    );
    registerContentTools(server);
    registerInputTools(server, codec);
    registerDiagnostics(server, () => handler.notify);
    return server;
  });
  const served = await serveWebHandler(handler, { port });
  return {
    url: `${served.origin}/mcp`,
    close: async () => {
      await handler.close();
      await served.close();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startServer2026(Number(process.argv[2] ?? 0));
  console.log(server.url);
}
