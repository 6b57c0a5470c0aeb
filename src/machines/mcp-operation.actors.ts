/**
 * The I/O of the `mcpOperation` machine, as named actors. Each one performs one exchange and
 * reports what happened; the machine's guards decide what it means. Every actor stops promptly
 * when XState aborts its signal (a deadline fired, the caller cancelled, or the state was left).
 */
import { fromCallback, fromPromise } from 'xstate';
import { ConnectionProtocolError } from '../wire/errors.js';
import {
  type ConnectionOperation,
  type ConnectionPhase,
  cancelBody,
  drainBounded,
  fetchWithoutRedirects,
  type HostFence,
  isResponseTo,
  parseJsonText,
  type ReadBudget,
  readBoundedText,
  readErrorExcerpt,
  readSseMessages,
  resolveEndpointUrl,
  type WireRequest,
} from '../wire/index.js';
import {
  buildRequestHeaders,
  decodeRpcResponse,
  isUnauthorizedStatus,
} from './mcp-operation.policy.js';
import type { McpOperationEvent, RpcExchange, TokenResolver } from './mcp-operation.types.js';
import { SecretValue } from './secret-value.js';

/** Where bytes-read progress is reported (the parent machine). */
export interface ByteReporter {
  send(event: { type: 'BYTES_READ'; bytes: number }): void;
}

/** Identity of the connection and operation an exchange belongs to. */
export interface ExchangeScope {
  readonly connectionName: string;
  readonly operation: ConnectionOperation;
  readonly phase: ConnectionPhase;
  readonly fence: HostFence;
  readonly fetch: typeof fetch;
}

/** The secret-bearing header parts; revealed only inside the actor, never in its input's JSON. */
export interface HeaderParts {
  readonly staticHeaders: Readonly<Record<string, SecretValue>>;
  readonly token: SecretValue | undefined;
  readonly sessionId: SecretValue | undefined;
  readonly protocolVersion: string | undefined;
}

/** Input of the `exchange` actor: one HTTP request and how to read its answer. */
export interface ExchangeInput {
  readonly scope: ExchangeScope;
  readonly reporter: ByteReporter;
  readonly url: string;
  readonly method: 'POST' | 'GET';
  readonly headers: HeaderParts;
  /** The JSON-RPC message to POST. */
  readonly message?: object;
  /** The id of the response to wait for; absent for notifications and legacy POSTs. */
  readonly expectId?: number;
  /** Resume an SSE response after this event id. */
  readonly lastEventId?: string;
  /** The operation's byte ceiling and what it has already read. */
  readonly maxBytes: number;
  readonly alreadyRead: number;
}

const STREAMABLE_ACCEPT = 'application/json, text/event-stream';
const SSE_ACCEPT = 'text/event-stream';

/** A read budget that reports progress to the machine and remembers the bytes read so far. */
function readBudget(
  input: ExchangeInput,
  signal: AbortSignal,
): ReadBudget & { readonly bytesRead: () => number } {
  let reported = input.alreadyRead;
  return {
    bytesRead: () => reported,
    connectionName: input.scope.connectionName,
    operation: input.scope.operation,
    phase: input.scope.phase,
    maxBytes: input.maxBytes,
    alreadyRead: input.alreadyRead,
    signal,
    onBytes: (total) => {
      if (total <= reported) return;
      const bytes = total - reported;
      reported = total;
      // A stopped actor must not move its parent: stale progress could reopen a closed decision.
      if (!signal.aborted) input.reporter.send({ type: 'BYTES_READ', bytes });
    },
  };
}

async function readSseResponse(
  response: Response,
  input: ExchangeInput,
  budget: ReturnType<typeof readBudget>,
  expectId: number,
): Promise<RpcExchange> {
  const rpcScope = () => ({ ...input.scope, observedReadBytes: budget.bytesRead() });
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  const messages = readSseMessages(response, {
    ...budget,
    maxFrameBytes: input.maxBytes,
    onRetry: (ms) => {
      retryMs = ms;
    },
  });
  for await (const message of messages) {
    if (message.id !== undefined) lastEventId = message.id === '' ? undefined : message.id;
    if (message.data === '') continue; // priming events carry an id and no payload
    const parsed = parseJsonText(message.data, rpcScope());
    if (!isResponseTo(parsed, expectId)) continue; // server requests and notifications are not ours
    const decoded = decodeRpcResponse(parsed, expectId, rpcScope());
    if (!decoded.ok) throw decoded.error;
    return { kind: 'response', value: decoded.value, sessionId: undefined };
  }
  if (lastEventId !== undefined) return { kind: 'interrupted', lastEventId, retryMs };
  throw new ConnectionProtocolError(
    input.scope.connectionName,
    'MCP stream ended without a response',
    rpcScope(),
  );
}

async function runExchange(input: ExchangeInput, signal: AbortSignal): Promise<RpcExchange> {
  const isPost = input.method === 'POST';
  const request: WireRequest = {
    url: new URL(input.url),
    method: input.method,
    headers: buildRequestHeaders({
      staticHeaders: input.headers.staticHeaders,
      token: input.headers.token,
      sessionId: input.headers.sessionId,
      protocolVersion: input.headers.protocolVersion,
      accept: isPost ? STREAMABLE_ACCEPT : SSE_ACCEPT,
      ...(isPost ? { contentType: 'application/json' } : {}),
      ...(input.lastEventId === undefined ? {} : { lastEventId: input.lastEventId }),
    }),
    signal,
    ...(input.message === undefined ? {} : { body: JSON.stringify(input.message) }),
  };
  const response = await fetchWithoutRedirects(request, input.scope);
  const budget = readBudget(input, signal);
  if (!response.ok) {
    // The machine's guards decide what a status means; here it only decides what to read: a 401
    // body carries nothing the client uses, so it is cancelled rather than read.
    if (isUnauthorizedStatus(response.status)) {
      cancelBody(response);
      return { kind: 'http-error', status: response.status, body: '' };
    }
    return {
      kind: 'http-error',
      status: response.status,
      body: await readErrorExcerpt(response, budget),
    };
  }
  const sessionHeader = response.headers.get('mcp-session-id');
  const sessionId = sessionHeader ? new SecretValue(sessionHeader) : undefined;
  if (input.expectId === undefined) {
    await drainBounded(response, budget);
    return { kind: 'accepted', status: response.status };
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.includes('text/event-stream')) {
    const exchange = await readSseResponse(response, input, budget, input.expectId);
    return exchange.kind === 'response' ? { ...exchange, sessionId } : exchange;
  }
  const text = await readBoundedText(response, budget);
  const scope = { ...input.scope, observedReadBytes: budget.bytesRead() };
  const decoded = decodeRpcResponse(parseJsonText(text, scope), input.expectId, scope);
  if (!decoded.ok) throw decoded.error;
  return { kind: 'response', value: decoded.value, sessionId };
}

/** One HTTP exchange with the server: a POST (JSON or SSE answer) or a resuming GET. */
export const exchange = fromPromise<RpcExchange, ExchangeInput>(({ input, signal }) =>
  runExchange(input, signal),
);

/** Resolves this run's bearer token; an empty string counts as none. */
export const resolveCredentials = fromPromise<
  SecretValue | undefined,
  { readonly resolveToken: TokenResolver }
>(async ({ input }) => {
  const token = await input.resolveToken();
  if (token === undefined || token === '') return undefined;
  if (typeof token !== 'string') {
    throw new TypeError('A connection token provider must return a string or undefined');
  }
  return new SecretValue(token);
});

/** Input of the `legacyStream` actor: the GET that carries the legacy HTTP+SSE session. */
export interface LegacyStreamInput {
  readonly scope: ExchangeScope;
  readonly url: string;
  readonly headers: HeaderParts;
  /** Per-frame raw byte ceiling; per-operation budgets are enforced by the machine. */
  readonly maxFrameBytes: number;
  /** Bound on the error body read when the GET is refused. */
  readonly maxErrorBytes: number;
}

/**
 * The legacy HTTP+SSE stream: opens the GET, then reports the endpoint, every JSON-RPC message and
 * every chunk's size to the machine, which owns all decisions. Its cleanup aborts the GET.
 */
export const legacyStream = fromCallback<McpOperationEvent, LegacyStreamInput>(
  ({ input, sendBack }) => {
    const controller = new AbortController();
    const { signal } = controller;
    const budget: ReadBudget = {
      connectionName: input.scope.connectionName,
      operation: input.scope.operation,
      phase: input.scope.phase,
      maxBytes: input.maxErrorBytes,
      signal,
    };
    const read = async () => {
      const response = await fetchWithoutRedirects(
        {
          url: new URL(input.url),
          method: 'GET',
          headers: buildRequestHeaders({ ...input.headers, accept: SSE_ACCEPT }),
          signal,
        },
        input.scope,
      );
      if (!response.ok) {
        let body = '';
        if (isUnauthorizedStatus(response.status)) cancelBody(response);
        else body = await readErrorExcerpt(response, budget);
        sendBack({ type: 'STREAM_REJECTED', status: response.status, body });
        return;
      }
      if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        cancelBody(response);
        throw new ConnectionProtocolError(
          input.scope.connectionName,
          'MCP legacy SSE stream answered without text/event-stream',
          input.scope,
        );
      }
      let reported = 0;
      const messages = readSseMessages(response, {
        ...budget,
        maxBytes: Number.POSITIVE_INFINITY,
        maxFrameBytes: input.maxFrameBytes,
        onBytes: (total) => {
          if (signal.aborted) return;
          sendBack({ type: 'BYTES_READ', bytes: total - reported });
          reported = total;
        },
      });
      const base = new URL(input.url);
      for await (const message of messages) {
        if (signal.aborted) return;
        if (message.event === 'endpoint') {
          sendBack({ type: 'SSE_ENDPOINT', url: endpointOrUndefined(message.data, base, input) });
        } else if (message.event === 'message' && message.data !== '') {
          sendBack({ type: 'SSE_MESSAGE', message: parseJsonText(message.data, input.scope) });
        }
      }
      if (!signal.aborted) sendBack({ type: 'STREAM_ENDED' });
    };
    read().catch((error: unknown) => {
      if (!signal.aborted) sendBack({ type: 'STREAM_FAILED', error });
    });
    return () => controller.abort();
  },
);

function endpointOrUndefined(
  data: string,
  base: URL,
  input: LegacyStreamInput,
): string | undefined {
  try {
    return resolveEndpointUrl(data, base, input.scope.connectionName).href;
  } catch {
    return undefined;
  }
}

/** Input of the `deleteSession` actor. */
export interface DeleteSessionInput {
  readonly scope: ExchangeScope;
  readonly url: string;
  readonly headers: HeaderParts;
}

/** Ends a stateful Streamable HTTP session with `DELETE`; any answer is accepted (405 included). */
export const deleteSession = fromPromise<void, DeleteSessionInput>(async ({ input, signal }) => {
  const response = await fetchWithoutRedirects(
    {
      url: new URL(input.url),
      method: 'DELETE',
      headers: buildRequestHeaders({ ...input.headers, accept: STREAMABLE_ACCEPT }),
      signal,
    },
    input.scope,
  );
  cancelBody(response);
});
