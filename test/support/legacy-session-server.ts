/**
 * A legacy HTTP+SSE MCP server with one stream per session (so many clients at once never see
 * each other's frames), whose `echo` tool fails as its `message` says: `ok` answers the echo,
 * `hang` never answers, `reset-after-post` accepts the POST and then destroys the session's stream
 * socket, `early-end` ends the stream, `malformed` sends a frame that is not JSON, `oversized` a
 * frame of `oversizeBytes`, `401` and `500` answer the POST so. For the soak.
 */
import { createServer, type ServerResponse } from 'node:http';
import { mcpMessage } from '../fixtures/fault-server.js';
import {
  listenOnLoopback,
  readBodyText,
  stopServer,
  trackSockets,
} from '../fixtures/http-helpers.js';

/** The faults the `echo` tool of {@link startLegacySessionServer} plays. */
export const LEGACY_FAULTS = [
  'ok',
  'hang',
  'reset-after-post',
  'early-end',
  'malformed',
  'oversized',
  '401',
  '500',
] as const;
/** One of {@link LEGACY_FAULTS}. */
export type LegacyFault = (typeof LEGACY_FAULTS)[number];

/** A running legacy session server. */
export interface LegacySessionServer {
  /** The stream's URL (`GET` opens a session; a `POST` there answers 404, as legacy servers do). */
  readonly url: string;
  close(): Promise<void>;
}

const ECHO_TOOL = {
  name: 'echo',
  description: 'Echoes the message back, or fails as it says.',
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string' } },
    required: ['message'],
  },
};

function frame(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

interface Rpc {
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: { protocolVersion?: string; arguments?: { message?: unknown } };
}

/** What the session's stream receives after the POST was answered 202. */
function play(stream: ServerResponse, rpc: Rpc, oversizeBytes: number): void {
  const id = rpc.id as string | number;
  if (rpc.method === 'initialize') {
    stream.write(
      frame(mcpMessage.initializeResult(id, { protocolVersion: rpc.params?.protocolVersion })),
    );
    return;
  }
  if (rpc.method === 'tools/list') {
    stream.write(frame(mcpMessage.toolsList(id, [ECHO_TOOL])));
    return;
  }
  const message = String(rpc.params?.arguments?.message ?? '');
  const fault = message as LegacyFault;
  if (fault === 'hang') return;
  if (fault === 'reset-after-post') stream.socket?.destroy();
  else if (fault === 'early-end') stream.end();
  else if (fault === 'malformed') stream.write('event: message\ndata: {"jsonrpc":\n\n');
  else {
    const text = fault === 'oversized' ? 'x'.repeat(oversizeBytes) : `Echo: ${message}`;
    stream.write(frame(mcpMessage.callResult(id, { content: [{ type: 'text', text }] })));
  }
}

/** Starts the server on 127.0.0.1 (an OS-assigned port); `oversizeBytes` sizes `oversized`. */
export async function startLegacySessionServer(
  oversizeBytes: number,
): Promise<LegacySessionServer> {
  const sessions = new Map<string, ServerResponse>();
  let next = 0;
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      next += 1;
      const session = String(next);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(`event: endpoint\ndata: /messages?session=${session}\n\n`);
      sessions.set(session, res);
      res.once('close', () => sessions.delete(session));
      return;
    }
    const stream = sessions.get(url.searchParams.get('session') ?? '');
    if (req.method !== 'POST' || url.pathname !== '/messages' || stream === undefined) {
      res.writeHead(404).end();
      return;
    }
    void readBodyText(req)
      .then((text) => {
        const rpc = JSON.parse(text ?? '') as Rpc;
        const fault = rpc.method === 'tools/call' ? rpc.params?.arguments?.message : undefined;
        if (fault === '401' || fault === '500') {
          res.writeHead(Number(fault), { 'content-type': 'text/plain' }).end('refused');
          return;
        }
        res.writeHead(202).end('Accepted');
        if (rpc.id !== undefined) setImmediate(() => play(stream, rpc, oversizeBytes));
      })
      // A client that went away mid-request, or a body that is not JSON: nothing to answer.
      .catch(() => res.destroy());
  });
  const sockets = trackSockets(http);
  const origin = await listenOnLoopback(http);
  return {
    url: `${origin}/sse`,
    close: () => stopServer(http, sockets),
  };
}
