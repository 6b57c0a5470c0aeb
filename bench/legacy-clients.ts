/**
 * The per-call alternatives against the legacy HTTP+SSE server: ours with the plain URL (it
 * probes Streamable HTTP first, gets 405 and falls back), ours with `transport.type: 'sse'` when
 * this build of the library has that option, and the MCP SDK's `SSEClientTransport` per call.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { McpClientConnectionConfig } from '../src/connections/index.js';
import {
  type CallAlternative,
  CLIENT_INFO,
  checkEcho,
  MESSAGE,
  oursAlternative,
} from './clients.js';
import type { ServerProcess } from './server-process.js';

/** Ours against the legacy URL with no hint: the Streamable probe, the 405, the fallback. */
export function oursProbeAlternative(url: string): Promise<CallAlternative> {
  return oursAlternative(url, { name: 'ours (probe)' });
}

/** The outcome of asking for `transport.type: 'sse'`. */
export type SseTypeOutcome =
  | { readonly supported: true; readonly alternative: CallAlternative }
  | { readonly supported: false; readonly reason: string };

/**
 * Ours with `transport: { url, type: 'sse' }`, if this build supports it. The option may not
 * exist yet: a definition that throws means it is refused; one that is accepted but still sends
 * the Streamable probe (a POST to the SSE URL, counted by the server child) means it is ignored.
 * Either way the alternative is reported as not measured rather than measured as something else.
 */
export async function oursSseTypeAlternative(server: ServerProcess): Promise<SseTypeOutcome> {
  // Built outside the literal so the type check passes whether or not `type` is declared yet.
  const transport = { url: server.url, type: 'sse' as const };
  const config: McpClientConnectionConfig = { name: 'bench-sse', transport };
  let alternative: CallAlternative;
  try {
    alternative = await oursAlternative(server.url, {
      id: 'ours-sse-type',
      name: "ours (type: 'sse')",
      config,
    });
  } catch (error) {
    return { supported: false, reason: `refused: ${(error as Error).message}` };
  }
  await server.resetCounts();
  await alternative.call();
  const probes = (await server.counts()).byRoute[`POST ${new URL(server.url).pathname}`] ?? 0;
  if (probes > 0) {
    await alternative.close();
    return { supported: false, reason: 'accepted but ignored (the call still probed)' };
  }
  return { supported: true, alternative };
}

/** The SDK `Client` + `SSEClientTransport` per call: connect (GET /sse), callTool, close. */
export function sdkSsePerCallAlternative(url: string): CallAlternative {
  return {
    id: 'sdk-sse',
    name: 'SDK SSEClientTransport per call',
    call: async () => {
      const client = new Client(CLIENT_INFO);
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
