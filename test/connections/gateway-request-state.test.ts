/**
 * The gateway seals its own state (decision 0038): `mountMcp` on a v2 `McpServer` mounts only
 * when the server's `requestState` seam verifies with the gateway's codec. Wired either way that
 * mounts (the codec given to the server alone, or to the server and the mount as the README
 * does), a state the gateway did not mint, sent by an MCP 2026-07-28 client over HTTP, is refused
 * with `-32602` before the tool runs. A server created without the codec, or with another
 * verifier, is refused at mount with a message saying what to pass, so its gateway answers no
 * result at all; and a server whose seam the mount cannot see mints no state and accepts none.
 * A state past its lifetime is refused alike, and one minted for another tool is refused by the
 * mount before the upstream is asked.
 */
import { randomBytes } from 'node:crypto';
import {
  createMcpHandler,
  createRequestStateCodec,
  McpServer as V2McpServer,
} from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type AnyRuntimeToolDefinition,
  createGatewayRequestState,
  type GatewayRequestState,
  GatewayStateError,
  mountMcp,
} from '../../src/binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../../src/connections/index.js';
import { serveWebHandler } from '../fixtures/http-helpers.js';
import { type McpV2Peers, startMcpV2Peers } from '../fixtures/mcp-v2-peers.js';
import { expectNoOpenSockets } from '../support/leaks.js';

const INFO = { name: 'gateway', version: '1.0.0' };
const ANSWER = { confirm: { action: 'accept', content: { confirm: true } } };
const WIRING =
  'const requestState = createGatewayRequestState(); ' +
  'const server = new McpServer(info, { requestState }); ' +
  'mountMcp(server, tools, { requestState })';

/** A v2 gateway served on 127.0.0.1: `createMcpHandler` over `factory`, 2026-07-28 only. */
interface Gateway {
  readonly url: string;
  close(): Promise<void>;
}

let peers: McpV2Peers;
let upstream: readonly AnyRuntimeToolDefinition[];
const gateways: Gateway[] = [];

async function serveGateway(factory: () => V2McpServer): Promise<Gateway> {
  const handler = createMcpHandler(factory, { legacy: 'reject' });
  const served = await serveWebHandler(handler);
  const gateway = {
    url: `${served.origin}/mcp`,
    close: async () => {
      await handler.close();
      await served.close();
    },
  };
  gateways.push(gateway);
  return gateway;
}

let nextId = 1;

/** One MCP 2026-07-28 `tools/call` of `confirm` (or `tool`) POSTed by hand; the status and the JSON answer. */
async function callConfirm(
  gateway: Gateway,
  params: Record<string, unknown>,
  tool = 'confirm',
): Promise<{ readonly status: number; readonly body: Record<string, unknown> }> {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': tool,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: {
        name: tool,
        arguments: { env: 'prod' },
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
          'io.modelcontextprotocol/clientInfo': { name: 'raw-2026-client', version: '1.0.0' },
        },
      },
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The gateway's `requestState` of a first call, which the upstream answered `input_required`. */
async function mintedState(gateway: Gateway): Promise<string> {
  const { body } = await callConfirm(gateway, {});
  const result = body.result as { resultType?: string; requestState?: unknown };
  expect(result.resultType).toBe('input_required');
  if (typeof result.requestState !== 'string') throw new Error('no requestState minted');
  return result.requestState;
}

/** The `requestState` and `inputResponses` of each `tools/call` the upstream received. */
function upstreamCalls(): { requestState: unknown; answered: boolean }[] {
  return peers.log
    .filter((entry) => entry.rpcMethods.includes('tools/call'))
    .map((entry) => {
      const params = (entry.body as { params: Record<string, unknown> }).params;
      return { requestState: params.requestState, answered: params.inputResponses !== undefined };
    });
}

/** What `mountMcp` threw, or `undefined`. */
function mountFailure(server: V2McpServer, requestState?: GatewayRequestState): unknown {
  try {
    mountMcp(server, upstream, requestState === undefined ? {} : { requestState });
    return undefined;
  } catch (error) {
    return error;
  }
}

beforeAll(async () => {
  peers = await startMcpV2Peers();
  upstream = await mountConnections([
    defineMcpClientConnection({ name: 'up', transport: { url: peers.url('/dual') } }),
  ]);
});

afterAll(async () => {
  for (const gateway of gateways) await gateway.close();
  await peers.close();
  await expectNoOpenSockets();
});

describe('mountMcp refuses a v2 McpServer whose requestState seam is not the gateway codec', () => {
  it('refuses one created without requestState, saying exactly what to pass', () => {
    const error = mountFailure(new V2McpServer(INFO));
    expect(error).toBeInstanceOf(GatewayStateError);
    expect(error).toMatchObject({
      name: 'GatewayStateError',
      code: 'GATEWAY_REQUEST_STATE',
      problem: 'unverified',
      message:
        'mountMcp: this McpServer (MCP SDK v2) verifies no requestState, so a state this ' +
        'gateway never minted would reach its tools. Create the server with the gateway codec ' +
        `and hand the same codec to mountMcp: ${WIRING}`,
    });
  });

  it.each([
    [
      'created with the SDK codec as its verifier',
      'foreign-verifier',
      () => ({
        server: new V2McpServer(INFO, {
          requestState: createRequestStateCodec({ key: randomBytes(32) }),
        }),
        given: undefined,
      }),
    ],
    [
      'created with one gateway codec and mounted with another',
      'two-codecs',
      () => ({
        server: new V2McpServer(INFO, { requestState: createGatewayRequestState() }),
        given: createGatewayRequestState(),
      }),
    ],
    [
      'mounted with a requestState that is no gateway codec',
      'foreign-codec',
      () => {
        const requestState = createGatewayRequestState();
        return {
          server: new V2McpServer(INFO, { requestState }),
          given: { verify: requestState.verify },
        };
      },
    ],
  ] as const)('refuses a server %s (%s)', (_title, problem, wiring) => {
    const { server, given } = wiring();
    const error = mountFailure(server, given);
    expect(error).toBeInstanceOf(GatewayStateError);
    expect(error).toMatchObject({ code: 'GATEWAY_REQUEST_STATE', problem });
    expect((error as Error).message).toContain(WIRING);
  });

  it('so a gateway whose factory forgets the codec answers a 2026 client no result, tampered state or not', async () => {
    const gateway = await serveGateway(() => {
      const server = new V2McpServer(INFO);
      mountMcp(server, upstream);
      return server;
    });
    peers.resetLog();
    for (const params of [{}, { inputResponses: ANSWER, requestState: 'g1.forged.state' }]) {
      expect(await callConfirm(gateway, params)).toEqual({
        status: 500,
        body: {
          jsonrpc: '2.0',
          id: expect.any(Number),
          error: { code: -32603, message: 'Internal server error' },
        },
      });
    }
    expect(upstreamCalls()).toEqual([]);
  });
});

describe('a gateway wired either way that mounts refuses every state it did not mint', () => {
  const codecs = { alone: createGatewayRequestState(), both: createGatewayRequestState() };
  const wired: Partial<Record<keyof typeof codecs, Gateway>> = {};

  beforeAll(async () => {
    // The codec given to the server alone: the mount seals with the one the server verifies.
    wired.alone = await serveGateway(() => {
      const server = new V2McpServer(INFO, { requestState: codecs.alone });
      mountMcp(server, upstream);
      return server;
    });
    // The README's wiring: the same codec given to the server and to the mount.
    wired.both = await serveGateway(() => {
      const server = new V2McpServer(INFO, { requestState: codecs.both });
      mountMcp(server, upstream, { requestState: codecs.both });
      return server;
    });
  });

  it.each([
    ['alone', 'both'],
    ['both', 'alone'],
  ] as const)(
    'given to the server %s: a tampered state or another gateway’s is -32602, its own completes the call',
    async (name, other) => {
      const gateway = wired[name] as Gateway;
      const state = await mintedState(gateway);
      const [version, body, tag] = state.split('.') as [string, string, string];
      // The body re-encoded with one field changed, the MAC kept: what a client forging it sends.
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
        e: number;
      };
      const extended = Buffer.from(JSON.stringify({ ...payload, e: payload.e + 3600 })).toString(
        'base64url',
      );
      const refused = [
        `${state}x`,
        `${version}.${extended}.${tag}`,
        `${version}.${body}.${Buffer.alloc(32).toString('base64url')}`,
        'asked:prod',
        await mintedState(wired[other] as Gateway),
      ];
      peers.resetLog();
      for (const requestState of refused) {
        const answer = await callConfirm(gateway, { inputResponses: ANSWER, requestState });
        expect(answer).toEqual({
          status: 200,
          body: {
            jsonrpc: '2.0',
            id: expect.any(Number),
            error: {
              code: -32602,
              message: 'Invalid or expired requestState',
              data: { reason: 'invalid_request_state' },
            },
          },
        });
      }
      // Refused before the tool ran: the upstream was never asked again.
      expect(upstreamCalls()).toEqual([]);
      const completed = await callConfirm(gateway, { inputResponses: ANSWER, requestState: state });
      expect(completed.body.result).toMatchObject({
        resultType: 'complete',
        content: [{ type: 'text', text: 'deployed to prod' }],
      });
      expect(upstreamCalls()).toEqual([{ requestState: 'asked:prod', answered: true }]);
    },
  );
});

describe('a state minted for one tool', () => {
  it('is refused by another tool called with the same arguments, which the upstream never sees', async () => {
    const requestState = createGatewayRequestState();
    const gateway = await serveGateway(() => {
      const server = new V2McpServer(INFO, { requestState });
      mountMcp(server, upstream, { requestState });
      return server;
    });
    const state = await mintedState(gateway);
    peers.resetLog();
    const answer = await callConfirm(
      gateway,
      { inputResponses: ANSWER, requestState: state },
      'chatty',
    );
    const result = answer.body.result as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]?.text ?? '{}')).toMatchObject({
      error: 'INVALID_REQUEST_STATE',
    });
    expect(upstreamCalls()).toEqual([]);
  });
});

describe('a state past its lifetime', () => {
  it('is -32602 one second after ttlSeconds, and completes the call one second before', async () => {
    const requestState = createGatewayRequestState({ ttlSeconds: 60 });
    const gateway = await serveGateway(() => {
      const server = new V2McpServer(INFO, { requestState });
      mountMcp(server, upstream, { requestState });
      return server;
    });
    // Only the clock is fake: the servers and the HTTP between them run for real.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const mintedAt = Math.floor(Date.now() / 1000) * 1000;
      vi.setSystemTime(mintedAt);
      const state = await mintedState(gateway);
      peers.resetLog();
      vi.setSystemTime(mintedAt + 61_000);
      expect(await callConfirm(gateway, { inputResponses: ANSWER, requestState: state })).toEqual({
        status: 200,
        body: {
          jsonrpc: '2.0',
          id: expect.any(Number),
          error: {
            code: -32602,
            message: 'Invalid or expired requestState',
            data: { reason: 'invalid_request_state' },
          },
        },
      });
      expect(upstreamCalls()).toEqual([]);
      vi.setSystemTime(mintedAt + 59_000);
      const completed = await callConfirm(gateway, { inputResponses: ANSWER, requestState: state });
      expect(completed.body.result).toMatchObject({
        resultType: 'complete',
        content: [{ type: 'text', text: 'deployed to prod' }],
      });
      expect(upstreamCalls()).toEqual([{ requestState: 'asked:prod', answered: true }]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a v2 server whose seam the mount cannot see (an SDK that keeps its hook elsewhere)', () => {
  it('mints no state and accepts none, even one a wired gateway minted', async () => {
    const wired = await serveGateway(() => {
      const requestState = createGatewayRequestState();
      const server = new V2McpServer(INFO, { requestState });
      mountMcp(server, upstream, { requestState });
      return server;
    });
    const unseen = await serveGateway(() => {
      const server = new V2McpServer(INFO);
      Reflect.deleteProperty(server.server, '_requestStateVerify');
      mountMcp(server, upstream);
      return server;
    });
    const minted = await mintedState(wired);
    peers.resetLog();

    const first = await callConfirm(unseen, {});
    const second = await callConfirm(unseen, { inputResponses: ANSWER, requestState: minted });

    const envelope = (answer: { body: Record<string, unknown> }) => {
      const result = answer.body.result as { isError?: boolean; content: { text: string }[] };
      expect(result).not.toHaveProperty('requestState');
      return { isError: result.isError, ...JSON.parse(result.content[0]?.text ?? '{}') };
    };
    expect(envelope(first)).toMatchObject({ isError: true, error: 'GATEWAY_STATE_UNSEALED' });
    expect(envelope(second)).toMatchObject({ isError: true, error: 'INVALID_REQUEST_STATE' });
    // The upstream asked once; no answer and no state ever reached it through this gateway.
    expect(upstreamCalls()).toEqual([{ requestState: undefined, answered: false }]);
  });
});
