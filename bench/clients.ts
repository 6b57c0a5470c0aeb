/**
 * The per-call alternatives against the Streamable HTTP servers: ours (a mounted connection tool
 * run through `runTool`), the MCP SDK `Client` per call, the SDK `Client` shared across calls,
 * and two raw floors (plain `fetch`, and undici's `request`). Each factory returns a `call()`
 * that performs one `echo` call and throws when the answer is not the expected one, plus a
 * `close()`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { runTool } from 'stitchkit-transport/binding';
import {
  defineMcpClientConnection,
  type McpClientConnectionConfig,
  mountConnections,
} from 'stitchkit-transport/connections';

/** Which alternative: the key the targets table looks results up by. */
export type AlternativeId =
  | 'ours'
  | 'ours-sse-type'
  | 'ours-openapi'
  | 'sdk-per-call'
  | 'sdk-per-call-shared-validator'
  | 'sdk-shared'
  | 'raw-fetch'
  | 'raw-undici'
  | 'sdk-sse'
  | 'sdk-sse-discovering'
  | 'ours-2025'
  | 'sdk2-known'
  | 'sdk2-known-shared-validator'
  | 'sdk2-auto'
  | 'raw-fetch-stateless'
  | 'raw-undici-modern'
  | 'ours-telemetry-off'
  | 'ours-no-provider'
  | 'ours-traced';

/** One way of making an `echo` call. */
export interface CallAlternative {
  readonly id: AlternativeId;
  readonly name: string;
  call(): Promise<void>;
  close(): Promise<void>;
}

export const MESSAGE = 'hello';
export const CLIENT_INFO = { name: 'bench-client', version: '1.0.0' };
const PROTOCOL_VERSION = LATEST_PROTOCOL_VERSION;

/**
 * Ours: discovery once at mount, then one fresh client (one `mcpOperation` run) per call, whose
 * answer must carry the echoed message ({@link checkEcho}, as for every alternative).
 * `config` defaults to `{ name: 'bench', transport: { url } }`.
 */
export async function oursAlternative(
  url: string,
  options: { id?: AlternativeId; name?: string; config?: McpClientConnectionConfig } = {},
): Promise<CallAlternative> {
  const config = options.config ?? { name: 'bench', transport: { url } };
  const tools = await mountConnections([defineMcpClientConnection(config)], {
    onSkippedTool: () => {},
  });
  const echo = tools.find((tool) => tool.name === 'echo');
  if (echo === undefined) throw new Error('echo was not mounted');
  return {
    id: options.id ?? 'ours',
    name: options.name ?? 'ours (runTool, client per call)',
    call: async () => {
      const result = await runTool(echo, { message: MESSAGE }, { source: 'internal' });
      if (!result.ok) throw new Error(`ours failed: ${JSON.stringify(result)}`);
      // The tool's result as the server sent it (`source: 'internal'` presents it unchanged):
      // checked exactly as every other alternative checks its answer.
      checkEcho(result.data);
    },
    close: async () => {},
  };
}

/** Throws unless `result` is the `echo` tool's answer to {@link MESSAGE}. */
export function checkEcho(result: unknown): void {
  const content = (result as { structuredContent?: unknown }).structuredContent;
  const echoed = (content as { echoed?: unknown } | undefined)?.echoed;
  if (echoed !== MESSAGE) throw new Error(`unexpected echo result: ${JSON.stringify(result)}`);
}

/** Which validator the SDK's per-call clients get: none (their own), or one for all of them. */
export interface SdkPerCallOptions {
  readonly sharedValidator?: boolean;
}

/**
 * How an SDK per-call alternative builds each `Client`: as the SDK's README does (every client
 * then builds an Ajv instance of its own), or handing all of them one `AjvJsonSchemaValidator`.
 */
export function sdkClientMaker(options: SdkPerCallOptions): () => Client {
  if (options.sharedValidator !== true) return () => new Client(CLIENT_INFO);
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  return () => new Client(CLIENT_INFO, { jsonSchemaValidator });
}

/**
 * The SDK `Client` + `StreamableHTTPClientTransport` per call: connect, callTool, close.
 * Built as the SDK's README builds it, `new Client(info)`: each client then builds an Ajv
 * instance of its own. `sharedValidator` hands every client one `AjvJsonSchemaValidator`
 * instead, which a careful host can do (a reference row, so the ratio's share that is Ajv shows).
 */
export function sdkPerCallAlternative(
  url: string,
  stateful: boolean,
  options: SdkPerCallOptions = {},
): CallAlternative {
  const newClient = sdkClientMaker(options);
  const shared = options.sharedValidator === true;
  const base = stateful ? 'SDK Client per call (+terminateSession)' : 'SDK Client per call';
  return {
    id: shared ? 'sdk-per-call-shared-validator' : 'sdk-per-call',
    name: shared ? `${base}, one validator [reference]` : base,
    call: async () => {
      const client = newClient();
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      try {
        checkEcho(await client.callTool({ name: 'echo', arguments: { message: MESSAGE } }));
        // Ending the session is what a correct per-call client does; ours sends the same DELETE.
        if (stateful) await transport.terminateSession();
      } finally {
        await client.close();
      }
    },
    close: async () => {},
  };
}

/** The SDK `Client` connected once and reused: a different design (one shared session). */
export async function sdkSharedAlternative(url: string): Promise<CallAlternative> {
  const client = new Client(CLIENT_INFO);
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return {
    id: 'sdk-shared',
    name: 'SDK Client shared [reference]',
    call: async () => {
      checkEcho(await client.callTool({ name: 'echo', arguments: { message: MESSAGE } }));
    },
    close: async () => {
      if (transport.sessionId !== undefined) await transport.terminateSession();
      await client.close();
    },
  };
}

/** The two HTTP primitives a raw floor needs, implemented once per HTTP client. */
interface RawWire {
  post(url: string, sessionId: string | null, body: string): Promise<RawAnswer>;
  remove(url: string, sessionId: string): Promise<void>;
  close(): Promise<void>;
}

interface RawAnswer {
  readonly sessionId: string | null;
  readonly text: string;
}

function postHeaders(sessionId: string | null): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': PROTOCOL_VERSION,
  };
  if (sessionId !== null) headers['mcp-session-id'] = sessionId;
  return headers;
}

const deleteHeaders = (sessionId: string) => ({
  'mcp-session-id': sessionId,
  'mcp-protocol-version': PROTOCOL_VERSION,
});

const fetchWire: RawWire = {
  post: async (url, sessionId, body) => {
    const response = await fetch(url, { method: 'POST', headers: postHeaders(sessionId), body });
    return { sessionId: response.headers.get('mcp-session-id'), text: await response.text() };
  },
  remove: async (url, sessionId) => {
    const response = await fetch(url, { method: 'DELETE', headers: deleteHeaders(sessionId) });
    await response.text();
  },
  close: async () => {},
};

/**
 * undici's `request` on a keep-alive `Agent` of its own (closed with the alternative). The library
 * under test has already loaded undici (its wire client), which made undici the global dispatcher
 * of the built-in `fetch` too: the SDK and the raw-fetch floor run on the same engine as in a host
 * that uses this library.
 */
async function undiciWire(): Promise<RawWire> {
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent();
  return {
    post: async (target, sessionId, body) => {
      const response = await request(target, {
        method: 'POST',
        headers: postHeaders(sessionId),
        body,
        dispatcher,
      });
      const header = response.headers['mcp-session-id'];
      const text = await response.body.text();
      return { sessionId: (Array.isArray(header) ? header[0] : header) ?? null, text };
    },
    remove: async (target, sessionId) => {
      const response = await request(target, {
        method: 'DELETE',
        headers: deleteHeaders(sessionId),
        dispatcher,
      });
      await response.body.text();
    },
    close: () => dispatcher.close(),
  };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
});
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { message: MESSAGE } },
});

/**
 * A floor: `initialize`, `notifications/initialized`, `tools/call` (+ `DELETE` when a session was
 * assigned), each awaited as ours awaits them, with `JSON.parse` and nothing else: no validation,
 * no deadlines, no byte ceilings.
 */
function rawAlternative(
  id: 'raw-fetch' | 'raw-undici',
  name: string,
  url: string,
  stateful: boolean,
  wire: RawWire,
): CallAlternative {
  return {
    id,
    name,
    call: async () => {
      const first = await wire.post(url, null, INITIALIZE);
      JSON.parse(first.text);
      await wire.post(url, first.sessionId, INITIALIZED);
      const answer = await wire.post(url, first.sessionId, CALL);
      const body = JSON.parse(answer.text) as { result?: { structuredContent?: unknown } };
      checkEcho(body.result ?? {});
      if (first.sessionId !== null) await wire.remove(url, first.sessionId);
      else if (stateful) throw new Error('the stateful server assigned no session');
    },
    close: () => wire.close(),
  };
}

/** The raw-fetch floor (the global `fetch`, whose keep-alive pool ours and the SDK share). */
export function rawFetchAlternative(url: string, stateful: boolean): CallAlternative {
  return rawAlternative('raw-fetch', 'raw fetch [floor]', url, stateful, fetchWire);
}

/** The raw undici floor: the same requests with undici's `request` API. */
export async function rawUndiciAlternative(
  url: string,
  stateful: boolean,
): Promise<CallAlternative> {
  const wire = await undiciWire();
  return rawAlternative('raw-undici', 'raw undici request [floor]', url, stateful, wire);
}
