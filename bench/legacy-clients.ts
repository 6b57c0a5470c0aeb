/**
 * The per-call alternatives against the legacy HTTP+SSE server: ours with the plain URL (it
 * probes Streamable HTTP first, gets 405 and falls back) and the MCP SDK's `SSEClientTransport`
 * per call. Ours with `transport.type: 'sse'` (no probe) is `oursAlternative` with that config
 * (`alternative-specs.ts`).
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

/** Ours against the legacy URL with no hint: the Streamable probe, the 405, the fallback. */
export function oursProbeAlternative(url: string): Promise<CallAlternative> {
  return oursAlternative(url, { name: 'ours (probe)' });
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
