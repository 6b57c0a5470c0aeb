/**
 * The I/O of the `mcpOperation` machine, as named actors, with the input builders that map the
 * machine's context onto each actor's input. Each actor performs one exchange and reports what
 * happened; the machine's guards decide what it means. Every actor stops promptly when XState
 * aborts its signal (a deadline fired, the caller cancelled, or the state was left).
 * Dependencies (the token resolver, the HTTP sender) enter once, through {@link makeMcpOperationActors}.
 * The two long-lived streams are read in `mcp-operation.streams.ts`, and what the stream actors
 * answer the server in `mcp-operation.server-requests.ts`.
 */
import { fromCallback, fromPromise } from 'xstate';
import { readRefusal } from '../../wire/http/refusal.js';
import {
  cancelBody,
  drainBounded,
  fetchWithoutRedirects,
  isEventStream,
  isResponseTo,
  type OperationScope,
  parseJsonText,
  type ReadBudget,
  readBoundedText,
  readSseBatches,
  rpcErrorOf,
  type WireRequest,
  type WireResponse,
  type WireSend,
} from '../../wire/index.js';
import { type BytesReadCounter, bytesReadCounter } from '../bytes-read.js';
import { makeResolveCredentials, type TokenResolver } from '../credentials.js';
import { SecretValue } from '../secret-value.js';
import {
  buildRequestHeaders,
  requestProgressToken,
  SSE_ACCEPT,
  STREAMABLE_ACCEPT,
  type StatelessFraming,
} from './mcp-operation.messages.js';
import { decodeRpcResponse, progressOf, runScopeOf } from './mcp-operation.policy.js';
import {
  type AnswerInputInput,
  answerInputRequests,
  handleServerMessage,
} from './mcp-operation.server-requests.js';
import {
  type CallerStreamInput,
  type LegacyStreamInput,
  readCallerStream,
  readLegacyStream,
  reportGrowth,
  stopStream,
} from './mcp-operation.streams.js';
import type {
  ActorBase,
  McpOperationContext,
  McpOperationEvent,
  RpcExchange,
} from './mcp-operation.types.js';
/** What the actors depend on; both have defaults, so the bare machine runs without a token. */
export interface McpOperationDependencies {
  /** Resolves a run's bearer token from its principal; default: no token. */
  readonly resolveToken?: TokenResolver;
  /** Sends every request; default the wire's own (undici on one shared keep-alive pool). */
  readonly send?: WireSend;
}

/** Where bytes-read and upstream progress are reported (the parent machine). */
export interface ByteReporter {
  send(
    event:
      | { type: 'BYTES_READ'; bytes: number }
      | { type: 'PROGRESS'; progress: number; total?: number; message?: string },
  ): void;
}

/** Input of the `exchange` actor: one HTTP request and how to read its answer. */
export interface ExchangeInput {
  /** What every actor of the run shares. */
  readonly base: ActorBase;
  readonly reporter: ByteReporter;
  readonly url: string;
  readonly method: 'POST' | 'GET';
  /** The JSON-RPC message to POST. */
  readonly message?: object;
  /** The id of the response to wait for; absent for notifications and legacy POSTs. */
  readonly expectId?: number;
  /** Resume an SSE response after this event id. */
  readonly lastEventId?: string;
  /** The request's progress token: matching progress notifications are reported. */
  readonly progressToken?: string | number;
  /**
   * A stateless request (MCP 2026-07-28), framed with these headers; its answer is a stateless result,
   * whose `resultType` is checked. Absent on the 2025 wires.
   */
  readonly stateless?: StatelessFraming;
  /** The operation's byte ceiling and what it has already read. */
  readonly maxBytes: number;
  readonly alreadyRead: number;
}

/** Input of the `deleteSession` actor. */
export interface DeleteSessionInput {
  /** What every actor of the run shares. */
  readonly base: ActorBase;
  readonly url: string;
}

/** The scope, fence and headers of the operation in progress (secrets still wrapped). */
function actorBase(context: McpOperationContext): ActorBase {
  return {
    scope: runScopeOf(context),
    fence: context.fence,
    headers: {
      staticHeaders: context.headers,
      token: context.token,
      sessionId: context.sessionId,
      protocolVersion: context.protocolVersion,
      trace: context.trace,
    },
    relay: context.relay,
    callerCapabilities: context.callerCapabilities,
  };
}

/** The input of an `exchange` actor for the operation in progress, to the run's own URL. */
export function exchangeInput(
  context: McpOperationContext,
  self: ByteReporter,
  shape: Pick<ExchangeInput, 'method' | 'message' | 'expectId' | 'lastEventId' | 'stateless'>,
): ExchangeInput {
  return {
    base: actorBase(context),
    // The legacy wire posts to the announced endpoint; the Streamable one to the connection URL.
    url: context.endpoint ?? context.url,
    reporter: self,
    maxBytes: context.maxBytes,
    alreadyRead: context.readBytes,
    ...(context.progressToken === undefined ? {} : { progressToken: context.progressToken }),
    ...shape,
  };
}

/**
 * The input of the `legacyStream` actor, opened while the operation is `endpoint`. Per-operation
 * budgets are enforced by the machine (`exceedsReadBudget`); the stream only bounds one frame.
 */
export function legacyStreamInput(context: McpOperationContext): LegacyStreamInput {
  return {
    base: actorBase(context),
    url: context.url,
    maxFrameBytes: Math.max(
      context.limits.handshake.maxResponseBytes,
      context.limits.request.maxResponseBytes,
    ),
    maxErrorBytes: context.limits.handshake.maxResponseBytes,
  };
}

/**
 * The input of the `callerStream` actor, spawned once the handshake is done. Its frames are bounded
 * like the request's; its bytes count toward the operation in progress (`exceedsReadBudget`).
 */
export function callerStreamInput(context: McpOperationContext): CallerStreamInput {
  const progressToken = requestProgressToken(context.request, context.progressToken);
  return {
    base: actorBase(context),
    url: context.url,
    maxFrameBytes: context.limits.request.maxResponseBytes,
    maxAnswerBytes: context.limits.handshake.maxResponseBytes,
    ...(progressToken === undefined ? {} : { progressToken }),
  };
}

/** The input of the `answerInputRequests` actor: what the server asks in the round in progress. */
export function answerInputInput(context: McpOperationContext): AnswerInputInput {
  return {
    base: actorBase(context),
    inputRequests: context.inputRequired?.inputRequests ?? {},
  };
}

/** The input of the `deleteSession` actor that ends a stateful session. */
export function deleteSessionInput(context: McpOperationContext): DeleteSessionInput {
  return { base: actorBase(context), url: context.url };
}

/** The read budget of one exchange: its ceiling, what it already read, and its byte counter. */
function exchangeBudget(
  input: ExchangeInput,
  signal: AbortSignal,
  response: WireResponse,
): ReadBudget & Pick<BytesReadCounter, 'bytesRead' | 'closeUnreported'> {
  const counter = bytesReadCounter(
    signal,
    reportGrowth((event) => input.reporter.send(event)),
    input.alreadyRead,
    response.body ?? undefined,
  );
  return {
    bytesRead: counter.bytesRead,
    closeUnreported: counter.closeUnreported,
    onBytes: counter.onBytes,
    maxBytes: input.maxBytes,
    alreadyRead: input.alreadyRead,
    signal,
    ...input.base.scope,
  };
}

/** Reads the awaited response from an SSE answer; an early end is an interruption for the chart. */
async function readSseResponse(
  response: WireResponse,
  input: ExchangeInput,
  budget: ReturnType<typeof exchangeBudget>,
  expectId: number,
  send: WireSend | undefined,
  sessionId: SecretValue | undefined,
): Promise<RpcExchange> {
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  const batches = readSseBatches(response, {
    maxFrameBytes: input.maxBytes,
    onRetry: (ms) => {
      retryMs = ms;
    },
    ...budget,
  });
  for await (const batch of batches) {
    for (const message of batch) {
      if (message.id !== undefined) lastEventId = message.id === '' ? undefined : message.id;
      if (message.data === '') continue; // priming events carry an id and no payload
      const scope = { observedReadBytes: budget.bytesRead(), ...input.base.scope };
      const parsed = parseJsonText(message.data, scope);
      const progress = progressOf(parsed, input.progressToken);
      if (progress !== undefined) {
        if (!budget.signal.aborted) input.reporter.send({ type: 'PROGRESS', ...progress });
        continue;
      }
      if (await handleServerMessage(input.base, parsed, input.url, budget, send)) continue;
      if (!isResponseTo(parsed, expectId)) continue; // notifications and other ids: not ours
      return responseExchange(parsed, expectId, scope, input.stateless !== undefined, sessionId);
    }
  }
  return { kind: 'interrupted', lastEventId, retryMs };
}

/**
 * The exchange of the answer `parsed` to request `expectId`, with the session the server assigned
 * (a malformed answer throws the wire's refusal); a stateless answer's marks (no `resultType`,
 * `input_required`) are present only when set.
 */
function responseExchange(
  parsed: unknown,
  expectId: number,
  scope: OperationScope,
  stateless: boolean,
  sessionId: SecretValue | undefined,
): RpcExchange {
  const decoded = decodeRpcResponse(parsed, expectId, scope, stateless);
  if (!decoded.ok) throw decoded.error;
  if (decoded.inputRequired !== undefined) {
    return {
      kind: 'response',
      value: undefined,
      sessionId,
      inputRequired: decoded.inputRequired,
    };
  }
  return decoded.untyped === true
    ? { kind: 'response', value: decoded.value, sessionId, untyped: true }
    : { kind: 'response', value: decoded.value, sessionId };
}

/** One exchange: the request, then its answer with the bytes it read and did not report. */
async function runExchange(
  input: ExchangeInput,
  signal: AbortSignal,
  send: WireSend | undefined,
): Promise<RpcExchange> {
  const isPost = input.method === 'POST';
  const request: WireRequest = {
    url: new URL(input.url),
    method: input.method,
    headers: buildRequestHeaders(input.base.headers, {
      accept: isPost ? STREAMABLE_ACCEPT : SSE_ACCEPT,
      ...(isPost ? { contentType: 'application/json' } : {}),
      ...(input.lastEventId === undefined ? {} : { lastEventId: input.lastEventId }),
      ...input.stateless,
    }),
    signal,
    ...(input.message === undefined ? {} : { body: JSON.stringify(input.message) }),
  };
  const response = await fetchWithoutRedirects(request, input.base.scope, input.base.fence, send);
  const budget = exchangeBudget(input, signal, response);
  const answer = await readAnswer(response, input, budget, send);
  return { unreportedBytes: budget.closeUnreported(), ...answer };
}

/** What the answer to one exchange says, read within its budget. */
async function readAnswer(
  response: WireResponse,
  input: ExchangeInput,
  budget: ReturnType<typeof exchangeBudget>,
  send: WireSend | undefined,
): Promise<RpcExchange> {
  if (!response.ok) {
    // The machine's guards decide what a status means; the wire reads a refusal one way for
    // every connection (decision 0041): a 401's body cancelled, any other body to its excerpt.
    const refusal = await readRefusal(response, budget);
    const rpcError = rpcErrorOf(refusal.body);
    return rpcError === undefined
      ? { kind: 'http-error', ...refusal }
      : { kind: 'http-error', rpcError, ...refusal };
  }
  const sessionHeader = response.headers.get('mcp-session-id');
  const sessionId = sessionHeader ? new SecretValue(sessionHeader) : undefined;
  if (input.expectId === undefined) {
    await drainBounded(response, budget);
    return { kind: 'accepted', status: response.status };
  }
  if (isEventStream(response.headers.get('content-type'))) {
    return readSseResponse(response, input, budget, input.expectId, send, sessionId);
  }
  const text = await readBoundedText(response, budget);
  const scope = { observedReadBytes: budget.bytesRead(), ...input.base.scope };
  return responseExchange(
    parseJsonText(text, scope),
    input.expectId,
    scope,
    input.stateless !== undefined,
    sessionId,
  );
}

/** Builds the named actors of `mcpOperation`; pass them to `mcpOperationMachine.provide`. */
export function makeMcpOperationActors(deps: McpOperationDependencies = {}) {
  // `undefined` lets the wire use its default sender: one home for that default.
  const { send } = deps;
  return {
    /** Resolves this run's bearer token for its principal. */
    resolveCredentials: makeResolveCredentials(deps.resolveToken),

    /** One HTTP exchange with the server: a POST (JSON or SSE answer) or a resuming GET. */
    exchange: fromPromise<RpcExchange, ExchangeInput>(({ input, signal }) =>
      runExchange(input, signal, send),
    ),

    /** The legacy HTTP+SSE stream, reported event by event to the machine. */
    legacyStream: fromCallback<McpOperationEvent, LegacyStreamInput>(({ input, sendBack }) => {
      const controller = new AbortController();
      const { signal } = controller;
      const counter = bytesReadCounter(signal, reportGrowth(sendBack));
      readLegacyStream(input, signal, sendBack, send, counter).catch((error: unknown) => {
        // What the failing chunk held is read too: reported before the failure.
        counter.reportUnreported();
        if (!signal.aborted) sendBack({ type: 'STREAM_FAILED', error });
      });
      return () => stopStream(controller);
    }),

    /** The standalone GET stream held for a relaying or progress-listening call, reported to the machine. */
    callerStream: fromCallback<McpOperationEvent, CallerStreamInput>(({ input, sendBack }) => {
      const controller = new AbortController();
      const { signal } = controller;
      readCallerStream(input, signal, sendBack, send).catch(() => {
        // A failed stream only stops relaying on it; the call goes on (and fails on its own).
        if (!signal.aborted) sendBack({ type: 'CALLER_STREAM_CLOSED' });
      });
      return () => stopStream(controller);
    }),

    /** Asks the call's caller what the server asks in an `input_required` round. */
    answerInputRequests: fromPromise<Readonly<Record<string, unknown>>, AnswerInputInput>(
      ({ input, signal }) => answerInputRequests(input, signal),
    ),

    /** Ends a stateful Streamable HTTP session with `DELETE`; any answer is accepted (405 too). */
    deleteSession: fromPromise<void, DeleteSessionInput>(async ({ input, signal }) => {
      const headers = buildRequestHeaders(input.base.headers, { accept: STREAMABLE_ACCEPT });
      const response = await fetchWithoutRedirects(
        { url: new URL(input.url), method: 'DELETE', headers, signal },
        input.base.scope,
        input.base.fence,
        send,
      );
      cancelBody(response);
    }),
  };
}
