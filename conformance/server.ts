/**
 * A Streamable HTTP MCP server (the SDK's low-level `Server`, stateful) that passes the
 * conformance suite's tools scenarios directly, so that running them through a gateway in front
 * of it shows what the gateway keeps. Sampling goes out on the session's standalone GET stream (as
 * the suite's reference server sends it), elicitation and roots on the call's own POST stream;
 * `via` picks the other stream. Run it: `node --import tsx conformance/server.ts [port]`.
 */
import { pathToFileURL } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { CONTENT_TOOLS } from './content-tools.js';
import { type StatefulHost, startStatefulHost } from './stateful-http.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const OBJECT = { type: 'object', properties: {} } as const;
const VIA = {
  via: { type: 'string', enum: ['post', 'standalone'], description: 'Which stream asks' },
} as const;

/** The content tools listed first, before the logging and progress tools. */
const CONTENT_FIRST = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
] as const;

/** A content tool's listing (no arguments). */
function contentTool(name: string): Tool {
  return { name, description: CONTENT_TOOLS[name]?.description ?? name, inputSchema: OBJECT };
}

/** Every tool, with the input schemas the scenarios check. */
export const CONFORMANCE_TOOLS: readonly Tool[] = [
  ...CONTENT_FIRST.map(contentTool),
  { name: 'test_tool_with_logging', description: 'Logs three messages', inputSchema: OBJECT },
  { name: 'test_tool_with_progress', description: 'Reports progress', inputSchema: OBJECT },
  contentTool('test_error_handling'),
  {
    name: 'test_sampling',
    description: 'Asks the client to sample its model',
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string' },
        ...VIA,
        force: { type: 'boolean', description: 'Ask even a client that did not declare sampling' },
      },
      required: ['prompt'],
    },
  },
  {
    name: 'test_elicitation',
    description: 'Asks the client for user input',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string' }, ...VIA },
      required: ['message'],
    },
  },
  { name: 'test_roots', description: "Lists the client's roots", inputSchema: OBJECT },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
  },
];

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const failure = (value: string): CallToolResult => ({ ...text(value), isError: true });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends a server request on the call's stream, or on the session's standalone stream. */
function ask<T>(
  server: Server,
  extra: Extra,
  via: unknown,
  request: ServerRequest,
  schema: Parameters<Server['request']>[1],
): Promise<T> {
  const options = { signal: extra.signal };
  return (
    via === 'standalone'
      ? server.request(request, schema, options)
      : extra.sendRequest(request, schema, options)
  ) as Promise<T>;
}

async function callTool(
  server: Server,
  name: string,
  args: Record<string, unknown>,
  extra: Extra,
): Promise<CallToolResult> {
  const capabilities = server.getClientCapabilities() ?? {};
  const content = CONTENT_TOOLS[name];
  if (content !== undefined) return structuredClone(content.result) as CallToolResult;
  switch (name) {
    case 'test_tool_with_logging':
      for (const [index, data] of [
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
      ].entries()) {
        if (index > 0) await pause(50);
        await extra.sendNotification({
          method: 'notifications/message',
          params: { level: 'info', logger: 'conformance', data },
        });
      }
      return text('Logged three messages');
    case 'test_tool_with_progress': {
      const progressToken = extra._meta?.progressToken;
      for (const [index, progress] of [0, 50, 100].entries()) {
        if (index > 0) await pause(50);
        if (progressToken === undefined) continue;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress, total: 100 },
        });
      }
      return text('Progress reported');
    }
    case 'test_sampling': {
      if (capabilities.sampling === undefined && args.force !== true) {
        return failure('The client does not support sampling');
      }
      try {
        const sampled = await ask<{ content: { type: string; text?: string } }>(
          server,
          extra,
          args.via ?? 'standalone',
          {
            method: 'sampling/createMessage',
            params: {
              messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
              maxTokens: 100,
            },
          },
          CreateMessageResultSchema,
        );
        return text(`LLM response: ${sampled.content.text ?? JSON.stringify(sampled.content)}`);
      } catch (error) {
        // What the client answered, for a test to read: e.g. -32601 from one that cannot sample.
        return failure(`Sampling refused: ${String((error as { code?: unknown }).code)}`);
      }
    }
    case 'test_elicitation': {
      if (capabilities.elicitation === undefined) {
        return failure('The client does not support elicitation');
      }
      const answer = await ask<{ action: string; content?: unknown }>(
        server,
        extra,
        args.via ?? 'post',
        {
          method: 'elicitation/create',
          params: {
            message: String(args.message),
            requestedSchema: {
              type: 'object',
              properties: {
                username: { type: 'string', description: "User's response" },
                email: { type: 'string', description: "User's email address" },
              },
              required: ['username', 'email'],
            },
          },
        },
        ElicitResultSchema,
      );
      return text(
        `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
      );
    }
    case 'test_roots': {
      if (capabilities.roots === undefined) return failure('The client does not support roots');
      const roots = await ask<{ roots: unknown[] }>(
        server,
        extra,
        'post',
        { method: 'roots/list', params: {} },
        ListRootsResultSchema,
      );
      return text(`Roots: ${JSON.stringify(roots.roots)}`);
    }
    case 'json_schema_2020_12_tool':
      return text(`Received ${JSON.stringify(args)}`);
    default:
      return failure(`Unknown tool ${name}`);
  }
}

/** One session's server: tools and logging, nothing else. */
export function createConformanceServer(): Server {
  const server = new Server(
    { name: 'stitchkit-conformance-server', version: '1.0.0' },
    { capabilities: { tools: {}, logging: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...CONFORMANCE_TOOLS] }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(server, request.params.name, request.params.arguments ?? {}, extra),
  );
  return server;
}

/** Starts the server on `port` (0: the OS picks). */
export function startConformanceServer(port = 0): Promise<StatefulHost> {
  return startStatefulHost(createConformanceServer, port);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const host = await startConformanceServer(Number(process.argv[2] ?? 0));
  console.log(host.url);
}
