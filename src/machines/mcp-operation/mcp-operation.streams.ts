import { readRefusal } from '../../wire/http/refusal.js';
import {
  ConnectionProtocolError,
  cancelBody,
  challengeField,
  fetchWithoutRedirects,
  isEventStream,
  parseJsonText,
  type ReadBudget,
  readSseBatches,
  readSseMessages,
  resolveEndpointUrl,
  type WireResponse,
  type WireSend,
} from '../../wire/index.js';
import { type BytesReadCounter, bytesReadCounter } from '../bytes-read.js';
import { buildRequestHeaders, SSE_ACCEPT, STREAMABLE_ACCEPT } from './mcp-operation.messages.js';
import { progressOf } from './mcp-operation.policy.js';
import { handleServerMessage, isServerMessage } from './mcp-operation.server-requests.js';
import type { ActorBase, McpOperationEvent } from './mcp-operation.types.js';
/** Input of the `legacyStream` actor: the GET that carries the legacy HTTP+SSE session. */
export interface LegacyStreamInput {
  /** What every actor of the run shares. */
  readonly base: ActorBase;
  readonly url: string;
  /** Per-frame raw byte ceiling; per-operation budgets are enforced by the machine. */
  readonly maxFrameBytes: number;
  /** Bound on the error body read when the GET is refused. */
  readonly maxErrorBytes: number;
}

/**
 * Input of the `callerStream` actor: the session's standalone GET, held open for the call's relayed
 * requests and its progress.
 */
export interface CallerStreamInput {
  /** What every actor of the run shares. */
  readonly base: ActorBase;
  readonly url: string;
  /** The call's progress token: the reports that carry it are relayed, none other. */
  readonly progressToken?: string | number;
  /** Per-frame raw byte ceiling; per-operation budgets are enforced by the machine. */
  readonly maxFrameBytes: number;
  /** Bound on the acknowledgement drained after each answer posted back. */
  readonly maxAnswerBytes: number;
}

/**
 * What a stream actor's own controller aborts with when the machine stops it: one error for the
 * process, whose stack is captured and formatted once. undici destroys the stream's body and socket
 * with the abort reason, and Node's stream `destroy` reads the error's `stack`, so a fresh
 * `DOMException` per stopped stream would be built and formatted on every legacy call (decision
 * 0022). It never leaves the actor: a stopped stream's failure is ignored.
 */
const STREAM_STOPPED = new Error('the mcpOperation machine stopped this stream');

/**
 * Stops a stream actor's request while no stack trace is captured. Ending a response that is
 * still open destroys its socket, and undici builds two errors of its own for that
 * (`RequestAbortedError`, `InformationalError`) whose stacks Node's stream `destroy` reads. They
 * never leave the wire: the stopped stream's failure is ignored, so their stacks are not worth
 * capturing (decision 0022). The limit is restored before this returns, and the signal has no
 * listener but undici's and the stream's own reads.
 */
export function stopStream(controller: AbortController): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    controller.abort(STREAM_STOPPED);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** A counter's report as the machine takes it: a `BYTES_READ` of the count's growth. */
export function reportGrowth(
  send: (event: { type: 'BYTES_READ'; bytes: number }) => void,
): (bytes: number) => void {
  return (bytes) => send({ type: 'BYTES_READ', bytes });
}

/** The GET that opens a long-lived SSE stream (legacy or standalone), fenced, with the run's headers. */
export function openSseGet(
  base: ActorBase,
  url: URL,
  signal: AbortSignal,
  send: WireSend | undefined,
): Promise<WireResponse> {
  const headers = buildRequestHeaders(base.headers, { accept: SSE_ACCEPT });
  return fetchWithoutRedirects(
    { url, method: 'GET', headers, signal },
    base.scope,
    base.fence,
    send,
  );
}

/**
 * Ends a stateful Streamable HTTP session with `DELETE`, fenced, with the run's headers; any answer
 * is accepted (405 too), its body released. Rejects as the wire does.
 */
export async function deleteStreamableSession(
  base: ActorBase,
  url: URL,
  signal: AbortSignal,
  send: WireSend | undefined,
): Promise<void> {
  const headers = buildRequestHeaders(base.headers, { accept: STREAMABLE_ACCEPT });
  const response = await fetchWithoutRedirects(
    { url, method: 'DELETE', headers, signal },
    base.scope,
    base.fence,
    send,
  );
  cancelBody(response);
}

/**
 * The legacy HTTP+SSE stream: opens the GET, then reports the endpoint and every JSON-RPC message
 * to the machine, which owns all decisions, each with the bytes read since the last report; a
 * chunk no event carries is reported as `BYTES_READ`. Its cleanup aborts the GET.
 */
export async function readLegacyStream(
  input: LegacyStreamInput,
  signal: AbortSignal,
  sendBack: (event: McpOperationEvent) => void,
  send: WireSend | undefined,
  counter: BytesReadCounter,
): Promise<void> {
  const budget: ReadBudget = { maxBytes: input.maxErrorBytes, signal, ...input.base.scope };
  const url = new URL(input.url);
  const response = await openSseGet(input.base, url, signal, send);
  if (!response.ok) {
    // The stream's refusal is judged by the machine; its Retry-After is not taken on this GET.
    const { status, body, challenge } = await readRefusal(response, budget);
    sendBack({ type: 'STREAM_REJECTED', status, body, ...challengeField(challenge) });
    return;
  }
  if (!isEventStream(response.headers.get('content-type'))) {
    cancelBody(response);
    throw new ConnectionProtocolError({
      ...input.base.scope,
      violation: 'answered the legacy SSE GET without text/event-stream',
    });
  }
  // The first event a chunk completes carries the chunk's bytes (decision 0018); a chunk that
  // completes none, or whose events the machine never sees, is reported as `BYTES_READ`.
  const batches = readSseBatches(response, {
    maxBytes: Number.POSITIVE_INFINITY,
    maxFrameBytes: input.maxFrameBytes,
    onBytes: counter.onBytes,
    onEventBytes: counter.hold,
    signal,
    ...input.base.scope,
  });
  let endpoint: URL | undefined;
  for await (const batch of batches) {
    for (const message of batch) {
      // The machine may stop the stream on any event it is sent: nothing is handed on after that.
      if (signal.aborted) return;
      if (message.event === 'endpoint') {
        // An unusable endpoint fails the stream with the wire's refusal; the fence is the chart's.
        endpoint = resolveEndpointUrl(message.data, url, input.base.scope);
        sendBack({ type: 'SSE_ENDPOINT', url: endpoint.href, bytes: counter.takeUnreported() });
      } else if (message.event === 'message' && message.data !== '') {
        const parsed = parseJsonText(message.data, input.base.scope);
        const answerUrl = endpoint?.href;
        if (answerUrl === undefined || !isServerMessage(parsed)) {
          sendBack({ type: 'SSE_MESSAGE', message: parsed, bytes: counter.takeUnreported() });
          continue;
        }
        // Answered on the endpoint (fenced by the wire before any byte is sent); counted as read,
        // and the bytes held so far are reported before the answer's round trip.
        counter.reportUnreported();
        const onBytes = bytesReadCounter(signal, reportGrowth(sendBack)).onBytes;
        await handleServerMessage(input.base, parsed, answerUrl, { onBytes, ...budget }, send);
      }
    }
    counter.reportUnreported();
  }
  if (!signal.aborted) sendBack({ type: 'STREAM_ENDED' });
}

/**
 * The standalone GET stream of a Streamable HTTP session, held while the call relays or listens for
 * progress: tells the machine once it is open (or that none is held: refused, not SSE, ended,
 * failed), then reports the progress that carries the call's token, answers every server request
 * on it and passes its log messages on. Its bytes are reported as read.
 */
export async function readCallerStream(
  input: CallerStreamInput,
  signal: AbortSignal,
  sendBack: (event: McpOperationEvent) => void,
  send: WireSend | undefined,
): Promise<void> {
  const response = await openSseGet(input.base, new URL(input.url), signal, send);
  // The specification lets a server refuse the stream (405); the call then relays on its own stream.
  if (!response.ok || !isEventStream(response.headers.get('content-type'))) {
    cancelBody(response);
    sendBack({ type: 'CALLER_STREAM_CLOSED' });
    return;
  }
  sendBack({ type: 'CALLER_STREAM_OPEN' });
  const messages = readSseMessages(response, {
    signal,
    maxBytes: Number.POSITIVE_INFINITY,
    maxFrameBytes: input.maxFrameBytes,
    onBytes: bytesReadCounter(signal, reportGrowth(sendBack)).onBytes,
    ...input.base.scope,
  });
  for await (const message of messages) {
    if (message.data === '') continue;
    const parsed = parseJsonText(message.data, input.base.scope);
    // Progress of our request, sent apart from it (mcp-framework does); another token's is not ours.
    const progress = progressOf(parsed, input.progressToken);
    if (progress !== undefined) {
      if (!signal.aborted) sendBack({ type: 'PROGRESS', ...progress });
      continue;
    }
    const onBytes = bytesReadCounter(signal, reportGrowth(sendBack)).onBytes;
    const budget = { signal, maxBytes: input.maxAnswerBytes, onBytes, ...input.base.scope };
    await handleServerMessage(input.base, parsed, input.url, budget, send);
  }
  if (!signal.aborted) sendBack({ type: 'CALLER_STREAM_CLOSED' });
}
