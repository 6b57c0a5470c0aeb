/**
 * Server child of the load curve (section 14): a trivial `node:http` server speaking the
 * MCP 2026-07-28 wire at `/modern`, so that the server is not what bounds the clients: canned
 * answers to `server/discover` and `tools/list` (the `echo` tool, the same schemas as the SDK
 * children's), and each `tools/call` answered with its own id and echoed message, no SDK, no
 * validation. `POST /control/hold?count=N` makes it hold every `tools/call` answer from then on;
 * `POST /control/wait` answers with the count held once N are held, or after {@link HOLD_QUIET_MS}
 * without a new one, or at {@link HOLD_DEADLINE_MS}; `POST /control/release` sends the held
 * answers and stops holding; `POST /control/close-idle` closes every idle keep-alive socket (the
 * runner asks after each client's level, so one client's sockets do not count against the next).
 * `node --import tsx bench/servers/modern-load.ts` (the runner forks it).
 */
import type { ServerResponse } from 'node:http';
import { readBodyText } from '../../test/fixtures/http-helpers.js';
import { serveInChild } from './serve.js';

/**
 * How long a wait for the hold's count lasts at most (under the v2 SDK's 60 s request timeout),
 * and how long it waits without a new call held once one is: calls that failed before reaching
 * the server never arrive, and the heap is then read with the calls that did (the runner prints
 * how many). A client saturated by 10,000 calls can take seconds to send its first.
 */
const HOLD_DEADLINE_MS = 45_000;
const HOLD_QUIET_MS = 10_000;

const SCHEMA = 'https://json-schema.org/draft/2020-12/schema';
const ECHO_TOOL = {
  name: 'echo',
  description: 'Echoes the message back.',
  inputSchema: {
    type: 'object',
    $schema: SCHEMA,
    properties: { message: { type: 'string' } },
    required: ['message'],
  },
  outputSchema: {
    $schema: SCHEMA,
    type: 'object',
    properties: { echoed: { type: 'string' } },
    required: ['echoed'],
    additionalProperties: false,
  },
};
const SERVER_META = {
  'io.modelcontextprotocol/serverInfo': { name: 'bench-load', version: '1.0.0' },
};

/** The result of each method this server answers. */
function resultOf(method: string | undefined, params: Record<string, unknown>): unknown {
  switch (method) {
    case 'server/discover':
      return {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'private',
        _meta: SERVER_META,
      };
    case 'tools/list':
      return { tools: [ECHO_TOOL], resultType: 'complete', _meta: SERVER_META };
    case 'tools/call': {
      const message = String((params.arguments as { message?: unknown } | undefined)?.message);
      return {
        content: [{ type: 'text', text: `Echo: ${message}` }],
        structuredContent: { echoed: message },
        resultType: 'complete',
        _meta: SERVER_META,
      };
    }
    default:
      return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The hold in force, if any: the answers held and the control request waiting for its count. */
let hold:
  | { readonly count: number; readonly held: (() => void)[]; reply?: (held: number) => void }
  | undefined;

/** Holds every `tools/call` answer from now on, until the release, waiting for `count` of them. */
function startHold(count: number): void {
  hold = { count, held: [] };
}

/** Answers `res` once the hold has its count (or after the deadline) with how many it holds. */
function waitForHold(res: ServerResponse): void {
  const current = hold;
  if (current === undefined) {
    sendJson(res, 409, { error: 'no hold in force' });
    return;
  }
  const started = Date.now();
  let seen = current.held.length;
  let quietSince = started;
  const timer = setInterval(() => {
    const now = Date.now();
    if (current.held.length !== seen) {
      seen = current.held.length;
      quietSince = now;
    }
    const quiet = seen > 0 && now - quietSince >= HOLD_QUIET_MS;
    if (now - started >= HOLD_DEADLINE_MS || quiet) current.reply?.(current.held.length);
  }, 250);
  current.reply = (held) => {
    clearInterval(timer);
    current.reply = undefined;
    sendJson(res, 200, { held });
  };
  if (current.held.length >= current.count) current.reply(current.held.length);
}

function release(): number {
  const current = hold;
  hold = undefined;
  if (current === undefined) return 0;
  current.reply?.(current.held.length);
  for (const answer of current.held) answer();
  return current.held.length;
}

await serveInChild({
  name: 'modern-load',
  // A level's run outlasts Node's 5 s: sockets the first calls of a 10,000-call run left idle were
  // closed by the server while the client, its CPU saturated, reused them, and the POSTs were
  // reset (up to half of a level's held calls, both clients alike). The curve measures the
  // clients, not that race.
  keepAliveTimeoutMs: 120_000,
  // 10,000 clients' connections arrive at once: Node's backlog of 511 overflows first.
  backlog: 16_384,
  handle: async (req, res, path) => {
    if (path === '/control/hold') {
      startHold(Number(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('count')));
      sendJson(res, 200, { holding: true });
      return;
    }
    if (path === '/control/wait') {
      waitForHold(res);
      return;
    }
    if (path === '/control/release') {
      sendJson(res, 200, { released: release() });
      return;
    }
    if (path === '/control/close-idle') {
      // The idle keep-alive sockets one client left: with 10,000 of them open, the next client's
      // 10,000 connections met the process's file-descriptor limit (20,000 here) and a few dozen
      // were reset, whichever client ran second.
      (
        req.socket as { server?: { closeIdleConnections?: () => void } }
      ).server?.closeIdleConnections?.();
      sendJson(res, 200, { closed: true });
      return;
    }
    if (path !== '/modern' || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    const request = JSON.parse((await readBodyText(req)) ?? '{}') as {
      id?: number | string;
      method?: string;
      params?: Record<string, unknown>;
    };
    const result = resultOf(request.method, request.params ?? {});
    if (result === undefined) {
      sendJson(res, 400, {
        jsonrpc: '2.0',
        id: request.id ?? null,
        error: { code: -32601, message: 'Method not found' },
      });
      return;
    }
    const answer = () => sendJson(res, 200, { jsonrpc: '2.0', id: request.id, result });
    const current = hold;
    if (request.method !== 'tools/call' || current === undefined) {
      answer();
      return;
    }
    current.held.push(answer);
    if (current.held.length >= current.count) current.reply?.(current.held.length);
  },
});
