/**
 * The per-call alternatives measured side by side: ours (a mounted connection tool run through
 * `runTool`), the MCP SDK `Client` per call, the SDK `Client` shared across calls, and the
 * raw-fetch floor. Each factory returns a `call()` that performs one `echo` call and throws when
 * the answer is not the expected one, plus a `close()`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { runTool } from '../src/binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../src/connections/index.js';

export interface CallAlternative {
  readonly name: string;
  call(): Promise<void>;
  close(): Promise<void>;
}

const MESSAGE = 'hello';
const PROTOCOL_VERSION = LATEST_PROTOCOL_VERSION;
const CLIENT_INFO = { name: 'bench-client', version: '1.0.0' };

/** Ours: discovery once at mount, then one fresh client (one machine run) per call. */
export async function oursAlternative(url: string): Promise<CallAlternative> {
  const tools = await mountConnections(
    [defineMcpClientConnection({ name: 'bench', transport: { url } })],
    { onSkippedTool: () => {} },
  );
  const echo = tools.find((tool) => tool.name === 'echo');
  if (echo === undefined) throw new Error('echo was not mounted');
  return {
    name: 'ours (runTool, client per call)',
    call: async () => {
      const result = await runTool(echo, { message: MESSAGE }, { source: 'internal' });
      if (!result.ok) throw new Error(`ours failed: ${JSON.stringify(result)}`);
    },
    close: async () => {},
  };
}

function checkEcho(result: unknown): void {
  const content = (result as { structuredContent?: unknown }).structuredContent;
  const echoed = (content as { echoed?: unknown } | undefined)?.echoed;
  if (echoed !== MESSAGE) throw new Error(`unexpected echo result: ${JSON.stringify(result)}`);
}

/** The SDK `Client` + `StreamableHTTPClientTransport` per call: connect, callTool, close. */
export function sdkPerCallAlternative(url: string, stateful: boolean): CallAlternative {
  return {
    name: stateful ? 'SDK Client per call (+terminateSession)' : 'SDK Client per call',
    call: async () => {
      const client = new Client(CLIENT_INFO);
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

interface RawState {
  sessionId: string | null;
}

async function rawPost(url: string, state: RawState, message: object): Promise<Response> {
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': PROTOCOL_VERSION,
  };
  if (state.sessionId !== null) headers['mcp-session-id'] = state.sessionId;
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
}

/**
 * The floor: the same POSTs with plain `fetch` and `JSON.parse`, no validation, no deadlines,
 * no byte ceilings. With `pipelined`, `notifications/initialized` is not awaited before
 * `tools/call` (both in flight at once): what skipping that round trip could buy at most.
 */
export function rawFetchAlternative(
  url: string,
  stateful: boolean,
  pipelined = false,
): CallAlternative {
  const initialize = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
  };
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  const call = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'echo', arguments: { message: MESSAGE } },
  };
  return {
    name: pipelined ? 'raw fetch, initialized not awaited [floor]' : 'raw fetch [floor]',
    call: async () => {
      const state: RawState = { sessionId: null };
      const first = await rawPost(url, state, initialize);
      state.sessionId = first.headers.get('mcp-session-id');
      JSON.parse(await first.text());
      const notify = rawPost(url, state, initialized).then((response) => response.text());
      if (!pipelined) await notify;
      const answer = await rawPost(url, state, call);
      const body = JSON.parse(await answer.text()) as { result?: { structuredContent?: unknown } };
      if (pipelined) await notify;
      checkEcho(body.result ?? {});
      if (state.sessionId !== null) {
        const end = await fetch(url, {
          method: 'DELETE',
          headers: { 'mcp-session-id': state.sessionId, 'mcp-protocol-version': PROTOCOL_VERSION },
        });
        await end.text();
      } else if (stateful) {
        throw new Error('the stateful server assigned no session');
      }
    },
    close: async () => {},
  };
}
