/**
 * The per-call alternatives against the legacy HTTP+SSE server, in two like-for-like pairs:
 * told the transport (ours with `transport.type: 'sse'`, which is `oursAlternative` with that
 * config in `alternative-specs.ts`, against the SDK's `SSEClientTransport` per call), and
 * discovering it (ours with the plain URL, which probes Streamable HTTP, gets 405 and falls back,
 * against the SDK client doing the same as its README's backwards-compatibility section shows).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallAlternative,
  checkEcho,
  MESSAGE,
  oursAlternative,
  sdkClientMaker,
} from './clients.js';

/** Ours against the legacy URL with no hint: the Streamable probe, the 405, the fallback. */
export function oursProbeAlternative(url: string): Promise<CallAlternative> {
  return oursAlternative(url, { name: 'ours (probe)' });
}

/** A new SDK `Client` over `SSEClientTransport`: its `connect` is the GET stream and the handshake. */
async function connectTold(newClient: () => Client, url: URL): Promise<Client> {
  const client = newClient();
  await client.connect(new SSEClientTransport(url));
  return client;
}

/**
 * A new SDK `Client` over `StreamableHTTPClientTransport`, and when its `connect` fails (the
 * legacy server answers the `initialize` POST 405), {@link connectTold}. The failed client has
 * closed itself (`Client.connect` closes on a failed handshake).
 */
async function connectDiscovering(newClient: () => Client, url: URL): Promise<Client> {
  const streamable = newClient();
  try {
    await streamable.connect(new StreamableHTTPClientTransport(url));
    return streamable;
  } catch {
    return connectTold(newClient, url);
  }
}

/**
 * The SDK `Client` per call against the legacy server: told the transport, `SSEClientTransport`
 * (connect, which is GET /sse and the handshake; callTool; close), or discovering it
 * (`connectDiscovering`). Each client builds its own validator, as the SDK's README builds one.
 */
export function sdkSsePerCallAlternative(
  url: string,
  options: { readonly discover?: boolean } = {},
): CallAlternative {
  const newClient = sdkClientMaker({});
  const discover = options.discover === true;
  return {
    id: discover ? 'sdk-sse-discovering' : 'sdk-sse',
    name: discover
      ? 'SDK Client per call, Streamable first, then SSEClientTransport'
      : 'SDK SSEClientTransport per call',
    call: async () => {
      const client = await (discover ? connectDiscovering : connectTold)(newClient, new URL(url));
      try {
        checkEcho(await client.callTool({ name: 'echo', arguments: { message: MESSAGE } }));
      } finally {
        await client.close();
      }
    },
    close: async () => {},
  };
}
