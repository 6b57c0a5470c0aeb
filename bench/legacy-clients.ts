/**
 * The per-call alternatives against the legacy HTTP+SSE server: ours with the plain URL (it
 * probes Streamable HTTP first, gets 405 and falls back), ours with `transport.type: 'sse'` (no
 * probe), and the MCP SDK's `SSEClientTransport` per call.
 */
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  type CallAlternative,
  checkEcho,
  MESSAGE,
  oursAlternative,
  type SdkPerCallOptions,
  sdkClientMaker,
} from './clients.js';
import type { ServerProcess } from './server-process.js';

/** Ours against the legacy URL with no hint: the Streamable probe, the 405, the fallback. */
export function oursProbeAlternative(url: string): Promise<CallAlternative> {
  return oursAlternative(url, { name: 'ours (probe)' });
}

/**
 * Ours told its wire, `transport: { url, type: 'sse' }`: no Streamable probe. One call is checked
 * first: a POST to the SSE URL (counted by the server child) would mean the probe was still sent,
 * and the numbers would measure something else.
 */
export async function oursSseTypeAlternative(server: ServerProcess): Promise<CallAlternative> {
  const alternative = await oursAlternative(server.url, {
    id: 'ours-sse-type',
    name: "ours (type: 'sse')",
    config: { name: 'bench-sse', transport: { url: server.url, type: 'sse' } },
  });
  await server.resetCounts();
  await alternative.call();
  const probes = (await server.counts()).byRoute[`POST ${new URL(server.url).pathname}`] ?? 0;
  if (probes > 0) throw new Error(`transport.type 'sse' still sent ${probes} Streamable probe(s)`);
  return alternative;
}

/**
 * The SDK `Client` + `SSEClientTransport` per call: connect (GET /sse), callTool, close. Each
 * client builds its own validator unless `sharedValidator` (see `sdkPerCallAlternative`).
 */
export function sdkSsePerCallAlternative(
  url: string,
  options: SdkPerCallOptions = {},
): CallAlternative {
  const newClient = sdkClientMaker(options);
  const shared = options.sharedValidator === true;
  return {
    id: shared ? 'sdk-sse-shared-validator' : 'sdk-sse',
    name: shared
      ? 'SDK SSEClientTransport per call, one validator [reference]'
      : 'SDK SSEClientTransport per call',
    call: async () => {
      const client = newClient();
      await client.connect(new SSEClientTransport(new URL(url)));
      try {
        checkEcho(await client.callTool({ name: 'echo', arguments: { message: MESSAGE } }));
      } finally {
        await client.close();
      }
    },
    close: async () => {},
  };
}
