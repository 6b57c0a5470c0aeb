/**
 * The alternatives of the MCP 2026-07-28 tables (sections 10 to 12), against the v2 SDK dual-revision
 * server child: ours in its default `'auto'` mode (the revision settled at mount, then one POST per
 * call), ours pinned to 2025-11-25 against the same server, the v2 SDK `Client`
 * (`@modelcontextprotocol/client` 2.x) per call with a known server (`connect(transport,
 * { prior })`) and per call in `'auto'` mode, and two floors of the one stateless POST: raw
 * `fetch`, and raw undici (ours' own HTTP client) on one shared keep-alive agent.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import {
  type CallAlternative,
  CLIENT_INFO,
  checkEcho,
  MESSAGE,
  oursAlternative,
} from './clients.js';

/** The revision the stateless rows speak. */
export const STATELESS_VERSION = '2026-07-28';

/** Ours pinned to the 2025-11-25 wire: `initialize`, `notifications/initialized`, the call. */
export function ours2025Alternative(url: string): Promise<CallAlternative> {
  return oursAlternative(url, {
    id: 'ours-2025',
    name: 'ours pinned to 2025-11-25',
    config: { name: 'bench-2025', transport: { url, protocolVersion: '2025-11-25' } },
  });
}

/** What the v2 SDK rows build each `Client` with. */
export interface Sdk2Options {
  /** `'known'`: `connect(t, { prior })` with the server's stored `DiscoverResult`; else `'auto'`. */
  readonly negotiation: 'known' | 'auto';
  /** One `AjvJsonSchemaValidator` for every client, as a careful host can hand it. */
  readonly sharedValidator?: boolean;
}

type DiscoverResult = NonNullable<ReturnType<Client['getDiscoverResult']>>;

/** Connects once in `'auto'` mode and returns the server's `DiscoverResult` (what a host stores). */
async function storedDiscovery(url: string): Promise<DiscoverResult> {
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const discover = client.getDiscoverResult();
    if (discover === undefined)
      throw new Error('the v2 SDK client negotiated no stateless revision');
    return discover;
  } finally {
    await client.close();
  }
}

/**
 * The v2 SDK `Client` + `StreamableHTTPClientTransport` per call: connect, callTool, close, built
 * as the SDK's README builds it (each client then selects a validator of its own), or with one
 * shared validator (a reference row).
 */
export async function sdk2PerCallAlternative(
  url: string,
  options: Sdk2Options,
): Promise<CallAlternative> {
  const jsonSchemaValidator =
    options.sharedValidator === true ? new AjvJsonSchemaValidator() : undefined;
  const clientOptions = {
    ...(jsonSchemaValidator === undefined ? {} : { jsonSchemaValidator }),
    ...(options.negotiation === 'auto' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
  };
  const prior =
    options.negotiation === 'known'
      ? { prior: { kind: 'modern' as const, discover: await storedDiscovery(url) } }
      : undefined;
  const known = options.negotiation === 'known';
  const base = known
    ? 'SDK v2 Client per call, known server (prior)'
    : "SDK v2 Client per call, 'auto'";
  return {
    id: known ? (jsonSchemaValidator ? 'sdk2-known-shared-validator' : 'sdk2-known') : 'sdk2-auto',
    name: jsonSchemaValidator === undefined ? base : `${base}, one validator [reference]`,
    call: async () => {
      const client = new Client(CLIENT_INFO, clientOptions);
      await client.connect(new StreamableHTTPClientTransport(new URL(url)), prior);
      try {
        checkEcho(await client.callTool({ name: 'echo', arguments: { message: MESSAGE } }));
      } finally {
        await client.close();
      }
    },
    close: async () => {},
  };
}

/**
 * The body of a 2026 `tools/call` exactly as ours sends it (captured from ours' request to the
 * dual-revision child): its id, its `_meta` envelope with ours' capabilities and `clientInfo`.
 * Both raw floors send it, so they pay for the same bytes ours does.
 */
export const MODERN_CALL_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: {
    name: 'echo',
    arguments: { message: MESSAGE },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
      'io.modelcontextprotocol/clientCapabilities': {
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
      'io.modelcontextprotocol/clientInfo': { name: 'stitchkit-transport', version: '0.1.0' },
    },
  },
});

/** The headers of that request, as ours writes them (undici adds host and content-length). */
export const MODERN_CALL_HEADERS = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': STATELESS_VERSION,
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
};

/**
 * The floor of a stateless call: the one POST with the global `fetch`, `JSON.parse` and nothing
 * else (no validation, no deadlines, no byte ceilings, no SSE answers).
 */
export function rawFetchStatelessAlternative(url: string): CallAlternative {
  return {
    id: 'raw-fetch-stateless',
    name: 'raw fetch, one stateless POST [floor]',
    call: async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers: MODERN_CALL_HEADERS,
        body: MODERN_CALL_BODY,
      });
      const body = JSON.parse(await response.text()) as { result?: unknown };
      checkEcho(body.result ?? {});
    },
    close: async () => {},
  };
}

/**
 * The like-for-like floor of ours' 2026 call (ours runs on undici): the same POST with undici's
 * `request` on one keep-alive `Agent` shared by every call (as ours shares one), the JSON answer
 * parsed and the echoed value checked, nothing else.
 */
export async function rawUndiciModernAlternative(url: string): Promise<CallAlternative> {
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent();
  return {
    id: 'raw-undici-modern',
    name: 'raw undici, one modern POST [floor]',
    call: async () => {
      const response = await request(url, {
        method: 'POST',
        headers: MODERN_CALL_HEADERS,
        body: MODERN_CALL_BODY,
        dispatcher,
      });
      const body = JSON.parse(await response.body.text()) as { result?: unknown };
      checkEcho(body.result ?? {});
    },
    close: () => dispatcher.close(),
  };
}
